#!/bin/sh
# foldfilter with one simple pattern over a 300,000-stack synthetic
# profile, against awk summing the counts of the same file in the same
# run. Target: at most 3 times awk. usage: bench/foldfilter.sh BUILDDIR
set -eu
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
gen=$top/bench/gen_folded.py
[ -e "$gen" ] || { echo "# foldfilter: $gen not found, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

python3 "$gen" 300000 1 >"$tmp/a.folded"
# "WALL CPU" each; both ratios are printed, CPU time being the steadier
base=$(best_times awk '{ s += $NF } END { print s }' "$tmp/a.folded")
tool=$(best_times "$b/foldfilter" --grep 'json' "$tmp/a.folded")
echo "$base $tool" | awk '{ printf "foldfilter --grep: wall %.2f s vs awk %.2f s, ratio %.2f; cpu %.2f s vs %.2f s, ratio %.2f (target <= 3)\n", $3, $1, $3 / $1, $4, $2, $4 / $2 }'
