#!/bin/sh
# make demo: the README's first pipeline on a bundled capture.
set -e
b=${1:-build}
in=testdata/demo/example-perf-stacks.txt.gz
gzip -dc "$in" | "$b/stackcollapse" > demo.folded
"$b/flamegraph-svg" --title "example-perf-stacks" < demo.folded > demo.svg
echo "demo.folded: $(wc -l < demo.folded) unique stacks," \
	"$(awk '{ s += $NF } END { printf "%d", s }' demo.folded) total"
echo "demo.svg: $(wc -c < demo.svg) bytes; open it in a browser"
