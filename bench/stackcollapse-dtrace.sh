#!/usr/bin/env bash
# Times stackcollapse-dtrace against `grep -c '^$'` (one pass over every
# byte) on a 100 MB input made of the largest DTrace capture of testdata
# (rust-names.txt: its header once, then its stacks again and again), in
# the same run, and prints the ratio, the throughput (target: at least
# 500 MB/s) and the peak memory (target: at most 16 MB), all on one
# thread (-j1); then -j2 against -j1.
# usage: bench/stackcollapse-dtrace.sh BUILDDIR [MB]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MB]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
mb=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
f=$top/testdata/stackcollapse-dtrace/rust-names.txt
# the header ends at the first blank line; the stacks follow
awk 'h { print } /^[ \t\r]*$/ { h = 1 }' "$f" >"$tmp/body"
# about 1 MB of stacks, then that a hundred times (MB times)
for i in $(seq $(( 1000000 / $(wc -c <"$tmp/body") + 1 ))); do
	cat "$tmp/body"
done >"$tmp/mb"
{
	awk '{ print } /^[ \t\r]*$/ { exit }' "$f"
	for i in $(seq "$mb"); do cat "$tmp/mb"; done
} >"$tmp/big.txt"
export RUNS=${RUNS:-5}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

t=$b/stackcollapse-dtrace
"$t" "$tmp/big.txt" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$tmp/big.txt")
tool=$(best_time "$t" -j1 "$tmp/big.txt")
off=$(best_time "$t" -j1 --includeoffset "$tmp/big.txt")
mem=$(peak_mb "$t" -j1 "$tmp/big.txt")
set -- $(best_times "$t" -j1 "$tmp/big.txt" ::: "$t" -j2 "$tmp/big.txt")
w1="$1 $2" w2="$3 $4"
bytes=$(wc -c <"$tmp/big.txt")
awk -v t="$tool" -v k="$off" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-dtrace: %.0f MB input; grep -c: %.3f s\n", n / 1e6, g
	printf "stackcollapse-dtrace: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-dtrace: --includeoffset %.3f s, ratio %.2f, %.0f MB/s\n",
	    k, (g > 0 ? k / g : 0), (k > 0 ? n / k / 1e6 : 0)
	printf "stackcollapse-dtrace: peak memory %.1f MB (target <= 16)\n", m
}'
set -- $w1 $w2
awk -v tw="$1" -v tc="$2" -v w2="$3" -v c2="$4" 'BEGIN {
	printf "stackcollapse-dtrace -j2: wall %.3f s vs -j1 %.3f s: %.2fx, cpu %.2f s vs %.2f s\n",
	    w2, tw, (w2 > 0 ? tw / w2 : 0), c2, tc
}'
