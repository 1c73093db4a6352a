#!/usr/bin/env bash
# Times stackcollapse-sample against `grep -c '^$'` (one pass over every
# byte) on a 100 MB input made by repeating the largest sample report of
# testdata (sample.txt, whole reports in a row), in the same run, and
# prints the ratio, the throughput (target: at least 500 MB/s) and the
# peak memory (target: at most 16 MB), all on one thread (-j1); then -j2
# against -j1 (target: 1.7x) and its peak memory (target: at most 2x).
# usage: bench/stackcollapse-sample.sh BUILDDIR [MB]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MB]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
mb=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
f=$top/testdata/stackcollapse-sample/sample.txt
# about 1 MB of reports, then that a hundred times (MB times)
for i in $(seq $(( 1000000 / $(wc -c <"$f") + 1 ))); do cat "$f"; done >"$tmp/mb"
for i in $(seq "$mb"); do cat "$tmp/mb"; done >"$tmp/big.txt"
export RUNS=${RUNS:-5}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

t=$b/stackcollapse-sample
"$t" "$tmp/big.txt" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$tmp/big.txt")
tool=$(best_time "$t" -j1 "$tmp/big.txt")
nomod=$(best_time "$t" -j1 --no-modules "$tmp/big.txt")
mem=$(peak_mb "$t" -j1 "$tmp/big.txt")
mem2=$(peak_mb "$t" -j2 "$tmp/big.txt")
set -- $(best_times "$t" -j1 "$tmp/big.txt" ::: "$t" -j2 "$tmp/big.txt")
w1="$1 $2" w2="$3 $4"
bytes=$(wc -c <"$tmp/big.txt")
awk -v t="$tool" -v k="$nomod" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-sample: %.0f MB input; grep -c: %.3f s\n", n / 1e6, g
	printf "stackcollapse-sample: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-sample: --no-modules %.3f s, ratio %.2f, %.0f MB/s\n",
	    k, (g > 0 ? k / g : 0), (k > 0 ? n / k / 1e6 : 0)
	printf "stackcollapse-sample: peak memory %.1f MB (target <= 16)\n", m
}'
awk -v a="$mem" -v b="$mem2" 'BEGIN {
	printf "stackcollapse-sample -j2: peak memory %.1f MB, %.2fx -j1 (target <= 2)\n", b, (a > 0 ? b / a : 0)
}'
speedup stackcollapse-sample "$w1" "$w2"
