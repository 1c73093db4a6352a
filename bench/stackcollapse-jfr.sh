#!/usr/bin/env bash
# Times stackcollapse-jfr against `grep -c '^$'` (one pass over every
# byte) on a large `jfr print` text made by concatenating the JDK 17
# captures of testdata, in the same run, and prints the ratio, the
# throughput (target: at least 500 MB/s) and the peak memory, all on one
# thread (-j1); then -j2 against -j1 (target: 1.7x) and its peak memory
# (target: at most 2x).
# usage: bench/stackcollapse-jfr.sh BUILDDIR [COPIES]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [COPIES]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
copies=${2:-80}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
d=$top/testdata/stackcollapse-jfr
gzip -dc "$d/cpu-deep.txt.gz" "$d/alloc-deep.txt.gz" "$d/lock-deep.txt.gz" \
    >"$tmp/one"
for i in $(seq "$copies"); do cat "$tmp/one"; done >"$tmp/big.txt"
export RUNS=${RUNS:-5}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

"$b/stackcollapse-jfr" "$tmp/big.txt" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$tmp/big.txt")
tool=$(best_time "$b/stackcollapse-jfr" -j1 "$tmp/big.txt")
alloc=$(best_time "$b/stackcollapse-jfr" -j1 --event ObjectAllocationSample --threads \
    --lines "$tmp/big.txt")
mem=$(peak_mb "$b/stackcollapse-jfr" -j1 "$tmp/big.txt")
mem2=$(peak_mb "$b/stackcollapse-jfr" -j2 "$tmp/big.txt")
set -- $(best_times "$b/stackcollapse-jfr" -j1 "$tmp/big.txt" ::: "$b/stackcollapse-jfr" -j2 "$tmp/big.txt")
w1="$1 $2" w2="$3 $4"
bytes=$(wc -c <"$tmp/big.txt")
awk -v t="$tool" -v a="$alloc" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-jfr: %.0f MB input; grep -c: %.3f s\n", n / 1e6, g
	printf "stackcollapse-jfr: samples %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-jfr: allocations --threads --lines %.3f s, ratio %.2f, %.0f MB/s\n",
	    a, (g > 0 ? a / g : 0), (a > 0 ? n / a / 1e6 : 0)
	printf "stackcollapse-jfr: peak memory %.1f MB\n", m
}'
awk -v a="$mem" -v b="$mem2" 'BEGIN {
	printf "stackcollapse-jfr -j2: peak memory %.1f MB, %.2fx -j1 (target <= 2)\n", b, (a > 0 ? b / a : 0)
}'
speedup stackcollapse-jfr "$w1" "$w2"
