#!/usr/bin/env bash
# Times stackcollapse-perf against `grep -c '^$'` (one pass over every
# byte) on a large system-wide perf script capture, in the same run, and
# prints the ratio (target: at most 2.5) and the peak memory (target: at
# most 16 MB). usage: bench/stackcollapse-perf.sh BUILDDIR [capture.gz]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [capture.gz]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-${FOLD_BENCH_DIR:-$top/../shared/bench}/perf-big.txt.gz}
[ -r "$src" ] || { echo "# stackcollapse-perf: no capture at $src; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
gzip -dc "$src" >"$tmp/big.perf"
runs=${RUNS:-5}

# best wall time of $runs runs, in seconds (output to a file: grep stops
# at the first match when it writes to /dev/null)
best() {
	local i t min= TIMEFORMAT=%R
	for i in $(seq "$runs"); do
		t=$( { time "$@" >"$tmp/out" 2>/dev/null; } 2>&1 ) || true
		if [ -z "$min" ] || awk "BEGIN{exit !($t < $min)}"; then min=$t; fi
	done
	echo "$min"
}

"$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null	# warm the page cache
base=$(best grep -c '^$' "$tmp/big.perf")
tool=$(best "$b/stackcollapse-perf" "$tmp/big.perf")
/usr/bin/time -o "$tmp/t" -f %M "$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null
mem=$(tail -n 1 "$tmp/t")
bytes=$(wc -c <"$tmp/big.perf")
awk -v t="$tool" -v g="$base" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-perf: %.3f s, grep -c: %.3f s, ratio %.2f (target <= 2.5), %.0f MB/s\n",
	    t, g, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-perf: peak memory %.1f MB (target <= 16)\n", m / 1024
}'
