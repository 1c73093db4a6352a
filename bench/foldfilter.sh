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
base=$(best awk '{ s += $NF } END { print s }' "$tmp/a.folded")
tool=$(best "$b/foldfilter" --grep 'json' "$tmp/a.folded")
echo "$base $tool" | awk '{ printf "foldfilter --grep: %.2f s, awk: %.2f s, ratio %.2f (target <= 3)\n", $2, $1, $2 / $1 }'
