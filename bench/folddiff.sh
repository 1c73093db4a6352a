#!/bin/sh
# folddiff of two 300,000-stack synthetic profiles (two seeds), its
# default differential output, against awk summing the counts of both
# files in the same run. Target: at most 3 times awk.
# usage: bench/folddiff.sh BUILDDIR
set -eu
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
gen=$top/bench/gen_folded.py
[ -e "$gen" ] || { echo "# folddiff: $gen not found, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

python3 "$gen" 300000 1 >"$tmp/a.folded"
python3 "$gen" 300000 2 >"$tmp/b.folded"
# "WALL CPU" each; both ratios are printed, CPU time being the steadier
base=$(best_times awk '{ s += $NF } END { print s }' "$tmp/a.folded" "$tmp/b.folded")
tool=$(best_times "$b/folddiff" "$tmp/a.folded" "$tmp/b.folded")
rep=$(best_times "$b/folddiff" --report "$tmp/a.folded" "$tmp/b.folded")
echo "$base $tool $rep" | awk '{ printf "folddiff: wall %.2f s vs awk %.2f s, ratio %.2f; cpu %.2f s vs %.2f s, ratio %.2f (target <= 3)\nfolddiff --report: wall ratio %.2f, cpu ratio %.2f\n", $3, $1, $3 / $1, $4, $2, $4 / $2, $5 / $1, $6 / $2 }'
