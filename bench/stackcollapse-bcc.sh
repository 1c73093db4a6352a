#!/usr/bin/env bash
# Times stackcollapse-bcc against `grep -c '^$'` (one pass over every
# byte) on a large input made by concatenating the eBPF captures of
# testdata (libbpf-tools offcputime and wakeuptime, bpftrace maps, bcc's
# multi-line form), in the same run, and prints the ratio, the throughput
# (target: at least 500 MB/s) and the peak memory, all on one thread
# (-j1); then -j2 against -j1 (target: 1.7x) and its peak memory (target:
# at most 2x).
# usage: bench/stackcollapse-bcc.sh BUILDDIR [COPIES]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [COPIES]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
copies=${2:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
d=$top/testdata/stackcollapse-bcc
{
	gzip -dc "$d"/offcputime.txt.gz "$d"/offcputime-v.txt.gz \
	    "$d"/wakeuptime.txt.gz "$d"/bpftrace-profile.txt.gz \
	    "$d"/bpftrace-perf.txt.gz "$d"/bpftrace-cs.txt.gz
	cat "$d"/py-offcputime.txt "$d"/py-profile.txt "$d"/py-stackcount.txt \
	    "$d"/py-offwaketime.txt "$d"/py-folded.txt
} >"$tmp/one"
for i in $(seq "$copies"); do cat "$tmp/one"; done >"$tmp/big.txt"
export RUNS=${RUNS:-5}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

"$b/stackcollapse-bcc" "$tmp/big.txt" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$tmp/big.txt")
tool=$(best_time "$b/stackcollapse-bcc" -j1 "$tmp/big.txt")
kern=$(best_time "$b/stackcollapse-bcc" -j1 --kernel --pid "$tmp/big.txt")
mem=$(peak_mb "$b/stackcollapse-bcc" -j1 "$tmp/big.txt")
mem2=$(peak_mb "$b/stackcollapse-bcc" -j2 "$tmp/big.txt")
set -- $(best_times "$b/stackcollapse-bcc" -j1 "$tmp/big.txt" ::: "$b/stackcollapse-bcc" -j2 "$tmp/big.txt")
w1="$1 $2" w2="$3 $4"
bytes=$(wc -c <"$tmp/big.txt")
awk -v t="$tool" -v k="$kern" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-bcc: %.0f MB input; grep -c: %.3f s\n", n / 1e6, g
	printf "stackcollapse-bcc: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-bcc: --kernel --pid %.3f s, ratio %.2f, %.0f MB/s\n",
	    k, (g > 0 ? k / g : 0), (k > 0 ? n / k / 1e6 : 0)
	printf "stackcollapse-bcc: peak memory %.1f MB\n", m
}'
awk -v a="$mem" -v b="$mem2" 'BEGIN {
	printf "stackcollapse-bcc -j2: peak memory %.1f MB, %.2fx -j1 (target <= 2)\n", b, (a > 0 ? b / a : 0)
}'
speedup stackcollapse-bcc "$w1" "$w2"
