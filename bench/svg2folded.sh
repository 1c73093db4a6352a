#!/usr/bin/env bash
# Times svg2folded against `grep -c '^$'` (one pass over every byte) on a
# flame graph SVG of about 115 MB drawn by flamegraph-svg from a synthetic
# profile of 30,000 stacks (100,000 pixels wide, no frame left out: about
# 600,000 frames, more than are sorted in memory), in the same run, and
# prints the ratio, the throughput (target: at least 500 MB/s), the peak
# memory (target: at most 64 MB) and whether the stacks recovered are the
# profile's.
# usage: bench/svg2folded.sh BUILDDIR [STACKS]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [STACKS]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
stacks=${2:-30000}
export BENCH_DIR=${BENCH_DIR:-$top/bench}
own_tmp=
if [ -z "${BENCH_TMP:-}" ]; then
	BENCH_TMP=$(mktemp -d) && own_tmp=$BENCH_TMP
fi
export BENCH_TMP
trap '[ -n "$own_tmp" ] && rm -rf "$own_tmp"; rm -f "$BENCH_TMP/svg2folded.svg"' EXIT
export LC_ALL=C
export RUNS=${RUNS:-3}
. "$BENCH_DIR/lib.sh"

f=$(synthetic "$stacks")
svg=$BENCH_TMP/svg2folded.svg
"$b/flamegraph-svg" --width 100000 --minwidth 0 "$f" >"$svg"
"$b/svg2folded" "$svg" >/dev/null 2>&1	# warm the page cache
base=$(best_time grep -c '^$' "$svg")
tool=$(best_time "$b/svg2folded" "$svg")
mem=$(peak_mb "$b/svg2folded" "$svg")
bytes=$(wc -c <"$svg")
if "$b/svg2folded" "$svg" 2>/dev/null | cmp -s - <(sort "$f"); then
	same="the profile's stacks, exactly"
else
	same="NOT the profile's stacks"
fi
awk -v t="$tool" -v g="$base" -v m="$mem" -v n="$bytes" -v s="$same" 'BEGIN {
	printf "svg2folded: %.0f MB SVG; grep -c: %.3f s\n", n / 1e6, g
	printf "svg2folded: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "svg2folded: peak memory %.1f MB (target <= 64)\n", m
	printf "svg2folded: recovered %s\n", s
}'
