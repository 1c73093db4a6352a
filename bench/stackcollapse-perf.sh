#!/usr/bin/env bash
# Times stackcollapse-perf against `grep -c '^$'` (one pass over every
# byte) on a large system-wide perf script capture, in the same run, and
# prints the ratio (target: at most 2) and the peak memory (target: at
# most 16 MB); then -j2 against -j1, their runs in turn (target: 1.7x,
# peak memory at most 2x), with the serial fraction that implies and what
# it predicts for 16 and 64 threads (Amdahl; only 2 are measured), next to
# what two -j1 runs at once give (the machine's own ceiling for -j2); and
# -j2 against -j1 on the capture's samples dealt out into 200 files
# (--files-from), and on eight copies of the capture one after another.
# usage: bench/stackcollapse-perf.sh BUILDDIR [capture.gz]
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
base=$(best_reps "$REPS" grep -c '^$' "$tmp/big.perf")
processors "stackcollapse-perf, before"
set -- $(BENCH_REPS=$REPS best_times "$b/stackcollapse-perf" -j1 \
    "$tmp/big.perf" ::: "$b/stackcollapse-perf" -j2 "$tmp/big.perf")
tool="$1 $2" j2="$3 $4"
processors "stackcollapse-perf, after"
mem=$(peak_mb "$b/stackcollapse-perf" -j1 "$tmp/big.perf")
mem2=$(peak_mb "$b/stackcollapse-perf" -j2 "$tmp/big.perf")
bytes=$(wc -c <"$tmp/big.perf")
set -- $base $tool
awk -v gw="$1" -v gc="$2" -v tw="$3" -v tc="$4" -v m="$mem" -v m2="$mem2" \
    -v n="$bytes" -v r="$REPS" 'BEGIN {
	gw /= r; gc /= r; tw /= r; tc /= r
	printf "stackcollapse-perf: wall %.2f s vs grep -c %.2f s: ratio %.2f (target <= 2), %.0f MB/s\n",
	    tw, gw, (gw > 0 ? tw / gw : 0), (tw > 0 ? n / tw / 1e6 : 0)
	printf "stackcollapse-perf: cpu %.2f s vs grep -c %.2f s: ratio %.2f\n",
	    tc, gc, (gc > 0 ? tc / gc : 0)
	printf "stackcollapse-perf: peak memory %.1f MB (target <= 16); at -j2 %.1f MB, %.2fx (target <= 2)\n",
	    m, m2, (m > 0 ? m2 / m : 0)
}'
speedup stackcollapse-perf "$tool" "$j2" "$REPS" 1.7
RUNS=5 ceiling stackcollapse-perf "$b/stackcollapse-perf" -j1 "$tmp/big.perf"

# A fleet: the capture's samples dealt out in turn into 200 files (about
# 425 KB each), read with --files-from, each file whole on a thread of
# its own; the output must be the capture's.
mkdir "$tmp/fleet"
awk -v dir="$tmp/fleet" 'BEGIN { RS = ""; ORS = "\n\n" }
    { print > (dir "/" (NR % 200) ".perf") }' "$tmp/big.perf"
ls "$tmp"/fleet/*.perf >"$tmp/fleet.list"
"$b/stackcollapse-perf" -j1 "$tmp/big.perf" >"$tmp/whole.folded"
"$b/stackcollapse-perf" --files-from "$tmp/fleet.list" >"$tmp/fleet.folded"
cmp -s "$tmp/whole.folded" "$tmp/fleet.folded" ||
	echo "FAIL stackcollapse-perf: the fleet's output is not the capture's"
set -- $(BENCH_REPS=$REPS best_times "$b/stackcollapse-perf" -j1 --files-from \
    "$tmp/fleet.list" ::: "$b/stackcollapse-perf" -j2 --files-from "$tmp/fleet.list")
speedup "stackcollapse-perf --files-from 200 files" "$1 $2" "$3 $4" "$REPS"
m1=$(peak_mb "$b/stackcollapse-perf" -j1 --files-from "$tmp/fleet.list")
m2=$(peak_mb "$b/stackcollapse-perf" -j2 --files-from "$tmp/fleet.list")
echo "stackcollapse-perf --files-from 200 files: peak memory -j1 $m1 MB, -j2 $m2 MB, $(ratio "$m2" "$m1")x (target <= 2)"
rm -rf "$tmp/fleet" "$tmp/whole.folded" "$tmp/fleet.folded"

# The same at eight times the size: what a part costs once (its tables,
# its caches, the merge) weighs less on a larger input.
for i in 1 2 3 4 5 6 7 8; do cat "$tmp/big.perf"; done >"$tmp/big8.perf"
rm -f "$tmp/big.perf"
set -- $(best_times "$b/stackcollapse-perf" -j1 "$tmp/big8.perf" ::: \
    "$b/stackcollapse-perf" -j2 "$tmp/big8.perf")
speedup "stackcollapse-perf x8 (680 MB)" "$1 $2" "$3 $4"
