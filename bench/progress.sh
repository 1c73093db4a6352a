#!/usr/bin/env bash
# The cost of the progress line: stackcollapse-perf over the large capture
# on one thread (-j1) with --progress (drawn into /dev/null, as on a
# terminal) against --no-progress, interleaved in the same run, the least
# time of each; and, when valgrind is there, the instructions of both on
# the first 8 MB (exact, unlike the noisy clock). Target: at most 1% more.
# usage: bench/progress.sh BUILDDIR
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/bench/perf-big.txt.gz
[ -r "$src" ] || { echo "# progress: no capture at $src; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
gzip -dc "$src" >"$tmp/big.perf"
BENCH_TMP=$tmp
. "$top/bench/lib.sh"

"$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null	# warm the page cache
# the least processor time of each in 10 times RUNS (3) interleaved runs:
# a sum of 5 single runs gave ratios of 0.89 to 1.24 for the same
# instructions
set -- $(RUNS=$((${RUNS:-3} * 10)) best_times \
    "$b/stackcollapse-perf" -j1 --no-progress "$tmp/big.perf" ::: \
    "$b/stackcollapse-perf" -j1 --progress "$tmp/big.perf")
off=$2 on=$4
echo "progress: cpu $on s with vs $off s without: ratio $(ratio "$on" "$off") (target <= 1.01)"
if command -v valgrind >/dev/null; then
	head -c 8000000 "$tmp/big.perf" >"$tmp/small.perf"
	for o in --no-progress --progress; do
		valgrind --tool=cachegrind --cache-sim=no \
		    --cachegrind-out-file=/dev/null "$b/stackcollapse-perf" $o \
		    "$tmp/small.perf" 2>&1 >/dev/null |
		    awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
	done | { read -r a; read -r p
		echo "progress: instructions $p with vs $a without: ratio $(ratio "$p" "$a")"; }
fi
