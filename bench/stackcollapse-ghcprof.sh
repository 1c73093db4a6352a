#!/usr/bin/env bash
# Times stackcollapse-ghcprof against `grep -c '^$'` (one pass over every
# byte) on a 100 MB input made by repeating the largest real input of
# testdata/stackcollapse-ghcprof (ticks.prof), in the same run, and prints the
# ratio, the throughput (target: at least 500 MB/s) and the peak memory
# (target: at most 16 MB).
# usage: bench/stackcollapse-ghcprof.sh BUILDDIR [MB]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MB]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
mb=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
one=$top/testdata/stackcollapse-ghcprof/ticks.prof
copies=$(( mb * 1000000 / $(wc -c <"$one") + 1 ))
for i in $(seq "$copies"); do cat "$one"; done >"$tmp/big"
export RUNS=${RUNS:-3}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

t=$b/stackcollapse-ghcprof
"$t" "$tmp/big" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$tmp/big")
tool=$(best_time "$t" "$tmp/big")
opt=$(best_time "$t" --bytes "$tmp/big")
mem=$(peak_mb "$t" "$tmp/big")
bytes=$(wc -c <"$tmp/big")
awk -v t="$tool" -v o="$opt" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-ghcprof: %.0f MB input; grep -c: %.3f s\n", n / 1e6, g
	printf "stackcollapse-ghcprof: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	if (o != "")
		printf "stackcollapse-ghcprof: --bytes %.3f s, ratio %.2f, %.0f MB/s\n",
		    o, (g > 0 ? o / g : 0), (o > 0 ? n / o / 1e6 : 0)
	printf "stackcollapse-ghcprof: peak memory %.1f MB (target <= 16)\n", m
}'
