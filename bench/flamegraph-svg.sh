#!/usr/bin/env bash
# flamegraph-svg on synthetic profiles against awk summing the counts of
# the same file in the same run. Targets on 300,000 stacks (about 200 MB):
# at most 2.5 times awk on one thread, peak memory under 250 MB. Then the
# scaling curve over 10k, 100k, 300k and 1M stacks (default -j): time,
# memory and output size (the output is bounded by what is drawn, not by
# the input).
# usage: bench/flamegraph-svg.sh BUILDDIR
set -u
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_DIR=${BENCH_DIR:-$top/bench}
own_tmp=
if [ -z "${BENCH_TMP:-}" ]; then
	BENCH_TMP=$(mktemp -d) && own_tmp=$BENCH_TMP
fi
export BENCH_TMP
trap '[ -n "$own_tmp" ] && rm -rf "$own_tmp"' EXIT
export LC_ALL=C
. "$BENCH_DIR/lib.sh"

# one thread: the single-thread target; -j2 after it
f=$(synthetic 300000)
processors "flamegraph-svg, before"
set -- $(best_times awk '{ s += $NF } END { print s }' "$f") \
    $(best_times "$b/flamegraph-svg" -j1 "$f" ::: "$b/flamegraph-svg" -j2 "$f")
processors "flamegraph-svg, after"
mem=$(peak_mb "$b/flamegraph-svg" -j1 "$f")
echo "flamegraph-svg -j1 300k stacks: CPU $4 s, awk $2 s (wall $3 s vs $1 s, ratio $(ratio "$3" "$1"))"
verdict "flamegraph-svg -j1 CPU time / awk (300k stacks)" "$(ratio "$4" "$2")" 2.5
verdict "flamegraph-svg -j1 peak MB (300k stacks)" "$mem" 250
# reading and the call tree's sort are on the threads; the merge of
# the pieces' tables, the tree and the picture are not
speedup "flamegraph-svg 300k stacks" "$3 $4" "$5 $6"

echo "scaling: stacks, input MB, seconds, awk seconds, ratio, peak MB, SVG KB, frames"
for n in 10000 100000 300000 1000000; do
	f=$(synthetic "$n")
	in=$(du -m "$f" | cut -f1)
	base=$(best_time awk '{ s += $NF } END { print s }' "$f")
	tool=$(best_time "$b/flamegraph-svg" "$f")
	mem=$(peak_mb "$b/flamegraph-svg" "$f")
	"$b/flamegraph-svg" "$f" >"$BENCH_TMP/out.svg" 2>/dev/null
	kb=$(( $(wc -c <"$BENCH_TMP/out.svg") / 1024 ))
	frames=$(grep -c '^<g><title>' "$BENCH_TMP/out.svg")
	echo "  $n, $in, $tool, $base, $(ratio "$tool" "$base"), $mem, $kb, $frames"
	[ "$n" -ge 1000000 ] && rm -f "$f"
done
