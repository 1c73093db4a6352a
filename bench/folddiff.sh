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

# best of three wall-clock times of a command, in seconds
best() {
	m=
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		m=$(echo "$s $e ${m:-}" | awk '{ t = $2 - $1; if ($3 != "" && $3 < t) t = $3; printf "%.3f", t }')
	done
	echo "$m"
}

python3 "$gen" 300000 1 >"$tmp/a.folded"
python3 "$gen" 300000 2 >"$tmp/b.folded"
base=$(best awk '{ s += $NF } END { print s }' "$tmp/a.folded" "$tmp/b.folded")
tool=$(best "$b/folddiff" "$tmp/a.folded" "$tmp/b.folded")
rep=$(best "$b/folddiff" --report "$tmp/a.folded" "$tmp/b.folded")
echo "$base $tool $rep" | awk '{ printf "folddiff: %.2f s, awk: %.2f s, ratio %.2f (target <= 3); folddiff --report: %.2f s, ratio %.2f\n", $2, $1, $2 / $1, $3, $3 / $1 }'
