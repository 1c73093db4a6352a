#!/usr/bin/env bash
# Times stackcollapse-perf against `grep -c '^$'` (one pass over every
# byte) on a large system-wide perf script capture, in the same run, and
# prints the ratio (target: at most 2.5) and the peak memory (target: at
# most 16 MB). usage: bench/stackcollapse-perf.sh BUILDDIR [capture.gz]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [capture.gz]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-$top/bench/perf-big.txt.gz}
[ -r "$src" ] || { echo "# stackcollapse-perf: no capture at $src; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
gzip -dc "$src" >"$tmp/big.perf"
export RUNS=${RUNS:-3}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

"$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null	# warm the page cache
# Each timing is of REPS runs in a row: one run takes a tenth of a second,
# near the resolution of the timer.
REPS=${REPS:-10}
reps() {
	local i
	for i in $(seq "$REPS"); do "$@" >"$tmp/reps.out"; done
}
base=$(best_times bash -c "$(declare -f reps); tmp=$tmp REPS=$REPS reps grep -c '^\$' $tmp/big.perf")
tool=$(best_times bash -c "$(declare -f reps); tmp=$tmp REPS=$REPS reps $b/stackcollapse-perf $tmp/big.perf")
mem=$(peak_mb "$b/stackcollapse-perf" "$tmp/big.perf")
bytes=$(wc -c <"$tmp/big.perf")
set -- $base $tool
awk -v gw="$1" -v gc="$2" -v tw="$3" -v tc="$4" -v m="$mem" -v n="$bytes" -v r="$REPS" 'BEGIN {
	gw /= r; gc /= r; tw /= r; tc /= r
	printf "stackcollapse-perf: wall %.2f s vs grep -c %.2f s: ratio %.2f (target <= 2.5), %.0f MB/s\n",
	    tw, gw, (gw > 0 ? tw / gw : 0), (tw > 0 ? n / tw / 1e6 : 0)
	printf "stackcollapse-perf: cpu %.2f s vs grep -c %.2f s: ratio %.2f\n",
	    tc, gc, (gc > 0 ? tc / gc : 0)
	printf "stackcollapse-perf: peak memory %.1f MB (target <= 16)\n", m
}'
