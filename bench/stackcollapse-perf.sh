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
runs=${RUNS:-5}

# best wall and CPU (user + system) times of $runs runs, in seconds: "W C".
# Output goes to a file: grep stops at its first match when writing to
# /dev/null. On a shared machine the CPU ratio is the steadier figure.
best() {
	local i w c minw= minc=
	for i in $(seq "$runs"); do
		/usr/bin/time -o "$tmp/t" -f '%e %U %S' "$@" >"$tmp/out" 2>/dev/null || true
		read -r w u s <"$tmp/t"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		if [ -z "$minw" ] || awk "BEGIN{exit !($w < $minw)}"; then minw=$w; fi
		if [ -z "$minc" ] || awk "BEGIN{exit !($c < $minc)}"; then minc=$c; fi
	done
	echo "$minw $minc"
}

"$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null	# warm the page cache
base=$(best grep -c '^$' "$tmp/big.perf")
tool=$(best "$b/stackcollapse-perf" "$tmp/big.perf")
/usr/bin/time -o "$tmp/t" -f %M "$b/stackcollapse-perf" "$tmp/big.perf" >/dev/null
mem=$(tail -n 1 "$tmp/t")
bytes=$(wc -c <"$tmp/big.perf")
set -- $base $tool
awk -v gw="$1" -v gc="$2" -v tw="$3" -v tc="$4" -v m="$mem" -v n="$bytes" 'BEGIN {
	printf "stackcollapse-perf: wall %.2f s vs grep -c %.2f s: ratio %.2f (target <= 2.5), %.0f MB/s\n",
	    tw, gw, (gw > 0 ? tw / gw : 0), (tw > 0 ? n / tw / 1e6 : 0)
	printf "stackcollapse-perf: cpu %.2f s vs grep -c %.2f s: ratio %.2f\n",
	    tc, gc, (gc > 0 ? tc / gc : 0)
	printf "stackcollapse-perf: peak memory %.1f MB (target <= 16)\n", m / 1024
}'
