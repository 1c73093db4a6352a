#!/usr/bin/env bash
# What the front door costs: stackcollapse (format detected) against
# stackcollapse-perf on the same large capture, interleaved run by run so
# that the machine's drift falls on both alike; prints the median ratio of
# their CPU times (target: under 1.02). usage: bench/stackcollapse.sh
# BUILDDIR [capture.gz]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [capture.gz]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-$top/bench/perf-big.txt.gz}
[ -r "$src" ] || { echo "# stackcollapse: no capture at $src; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
gzip -dc "$src" >"$tmp/big.perf"
BENCH_TMP=$tmp
. "$top/bench/lib.sh"

"$b/stackcollapse" "$tmp/big.perf" >"$tmp/a"	# warm, and check
"$b/stackcollapse-perf" "$tmp/big.perf" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "stackcollapse: output differs"; exit 1; }
# One run takes a tenth of a second, near the timer's resolution: each
# timing is of REPS runs in a row.
PAIRS=${PAIRS:-5} REPS=${REPS:-10}
for i in $(seq "$PAIRS"); do
	t=$(RUNS=1 best_reps "$REPS" "$b/stackcollapse-perf" "$tmp/big.perf" | cut -d' ' -f2)
	f=$(RUNS=1 best_reps "$REPS" "$b/stackcollapse" "$tmp/big.perf" | cut -d' ' -f2)
	ratio "$f" "$t"
done | sort -n | awk -v n="$PAIRS" '{ r[NR] = $1 } END {
	printf "stackcollapse: cpu time / stackcollapse-perf cpu time: median %.3f of %d interleaved pairs (min %.3f, max %.3f; target < 1.02)\n",
	    r[int((n + 1) / 2)], n, r[1], r[n]
}'
