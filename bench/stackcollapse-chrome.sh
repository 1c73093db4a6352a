#!/usr/bin/env bash
# Times stackcollapse-chrome against `wc -w` (one pass over every byte;
# `grep -c` needs next to no time on a profile, which is one long line) on
# a 100 MB profile that gen_cpuprofile.py builds from the largest
# capture of testdata (its node tree copied, its samples repeated), in the
# same run, and prints the ratio, the throughput (target: at least
# 500 MB/s), the peak memory (target: at most 3 times the file) and, when
# node is installed, how many times as fast as a node process that only
# runs JSON.parse on the file (target: 5).
# usage: bench/stackcollapse-chrome.sh BUILDDIR [MBYTES]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MBYTES]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
mb=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
python3 "$top/bench/gen_cpuprofile.py" \
    "$top/testdata/stackcollapse-chrome/async.cpuprofile" "$mb" >"$tmp/big.cpuprofile"
export RUNS=${RUNS:-3}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

f=$tmp/big.cpuprofile
"$b/stackcollapse-chrome" "$f" >/dev/null 2>&1	# warm the page cache
base=$(best_time wc -w "$f")
tool=$(best_time "$b/stackcollapse-chrome" "$f")
timed=$(best_time "$b/stackcollapse-chrome" --time --lines "$f")
mem=$(peak_mb "$b/stackcollapse-chrome" --time --lines "$f")
bytes=$(wc -c <"$f")
# what a user would do instead: load it where JSON.parse reads it whole
js=0
command -v node >/dev/null 2>&1 &&
    js=$(best_time node --max-old-space-size=16384 -e \
	'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$f")
awk -v t="$tool" -v k="$timed" -v g="$base" -v m="$mem" -v n="$bytes" \
    -v j="$js" 'BEGIN {
	printf "stackcollapse-chrome: %.0f MB input; wc -w: %.3f s\n", n / 1e6, g
	printf "stackcollapse-chrome: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
	    t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
	printf "stackcollapse-chrome: --time --lines %.3f s, ratio %.2f, %.0f MB/s\n",
	    k, (g > 0 ? k / g : 0), (k > 0 ? n / k / 1e6 : 0)
	printf "stackcollapse-chrome: peak memory %.1f MB, %.2fx the file (target <= 3x)\n",
	    m, m * 1e6 * 1.048576 / n
	if (j > 0)
		printf "stackcollapse-chrome: node JSON.parse of the file %.3f s; %.2fx as fast (target >= 5)\n",
		    j, (t > 0 ? j / t : 0)
}'
