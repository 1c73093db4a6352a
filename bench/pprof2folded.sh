#!/usr/bin/env bash
# pprof2folded on a pprof profile of 100,000 samples (made by folded2pprof
# from gen_folded.py output) against go tool pprof -traces on the same
# file, in the same run; and its peak memory against the decompressed
# profile's size. Targets: 20x faster, under 3x the size.
# usage: bench/pprof2folded.sh BUILDDIR
set -eu
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
gen=$top/bench/gen_folded.py
if ! command -v go >/dev/null 2>&1; then
	echo "# pprof2folded: go is not installed, no baseline: skipped"
	exit 0
fi
BENCH_TMP=$(mktemp -d)
trap 'rm -rf "$BENCH_TMP"' EXIT
export LC_ALL=C GOCACHE="$BENCH_TMP/gocache" HOME="$BENCH_TMP"
. "$top/bench/lib.sh"
tmp=$BENCH_TMP

python3 "$gen" 100000 >"$tmp/b.folded"
"$b/folded2pprof" --sample-type cpu/nanoseconds "$tmp/b.folded" >"$tmp/b.pb.gz"
gzip -dc "$tmp/b.pb.gz" >"$tmp/b.pb"
want=$(awk '{s += $NF} END {print s}' "$tmp/b.folded")
got=$(go tool pprof -top -unit=ns "$tmp/b.pb.gz" 2>/dev/null |
    sed -n 's/.* of \([0-9]*\)ns total.*/\1/p')
[ "$got" = "$want" ] ||
	{ echo "FAIL go tool pprof reads a total of $got, not $want"; exit 1; }
"$b/pprof2folded" "$tmp/b.pb.gz" >"$tmp/ours"
# the stacks, sorted, after the line that carries their unit
{ echo "# unit=nanoseconds 0"; sort "$tmp/b.folded"; } | cmp -s - "$tmp/ours" ||
	{ echo "FAIL pprof2folded does not give back the folded input"; exit 1; }

read -r goel gocpu < <(best_times go tool pprof -traces "$tmp/b.pb.gz")
read -r el cpu < <(best_times "$b/pprof2folded" "$tmp/b.pb.gz")
mb=$(peak_mb "$b/pprof2folded" "$tmp/b.pb.gz")
size=$(wc -c <"$tmp/b.pb")
awk -v gc="$gocpu" -v ge="$goel" -v c="$cpu" -v e="$el" -v mb="$mb" \
    -v size="$size" 'BEGIN {
	printf "pprof2folded: 100,000 samples (%.1f MB decompressed): %.2f s cpu " \
	    "(%.2f s elapsed), go tool pprof -traces %.2f s cpu (%.2f s): " \
	    "%.0fx faster (%.0fx elapsed; target 20x)\n", size / 1e6, c, e, gc, ge,
	    gc / c, ge / e
	printf "pprof2folded: peak memory %.1f MiB, %.2fx the decompressed " \
	    "profile (target under 3x)\n", mb, mb * 1048576 / size
}'
