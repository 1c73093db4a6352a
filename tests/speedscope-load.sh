#!/usr/bin/env bash
# Loads each FILE into the real speedscope web app (the npm package
# speedscope 1.25.0) in headless Chromium, as a user opening it with the
# "Browse" button would, and prints per profile speedscope imported:
#
#	NAME<TAB>TOTAL<TAB>UNIT
#
# TOTAL is what speedscope's flame graph (Left Heavy) spans, the sum of
# its call tree's roots (Profile.getTotalNonIdleWeight); UNIT is its
# value unit (none, nanoseconds ... seconds, bytes). --time-order adds a
# fourth column: the span of the Time Order view (Profile.getTotalWeight,
# for a speedscope file at least endValue - startValue). --by-file prints
# a line file<TAB>FILE before each file's lines: many files load in one
# browser, whose start-up costs more than a load. A file speedscope
# refuses prints error<TAB>MESSAGE (the importer's exception or the alert
# it shows), and the exit status is then 1; a harness failure (the app did
# not start or finish within $SPEEDSCOPE_TIMEOUT s, 40 by default) is
# said on standard error, status 2. With --export OUT (one FILE), it then
# clicks speedscope's Export button and saves the speedscope file the app
# downloads as OUT. How the values are read out of the app:
# tests/speedscope_load.py.
#
# The app comes from `npm pack speedscope@1.25.0` (checked against its
# sha512) unpacked into $SPEEDSCOPE_DIR (build/speedscope by default),
# reused when present. Without chromium (or python3, or npm when the app
# is not there yet) it says so on standard error and exits 77 (skipped).
#
# usage: tests/speedscope-load.sh [--time-order] [--by-file] [--export OUT] FILE...
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${here%/*}
version=1.25.0
integrity=sha512-cpf9HWTZf1ijLXBJrk87Ve/54tnYx6rlf0gUThvn3ook6h63hLXVOQiMf44PT+XoV503cPfvfiT5gP5vojp6Ag==
dir=${SPEEDSCOPE_DIR:-$top/build/speedscope}

usage() {
	echo "usage: $0 [--time-order] [--by-file] [--export OUT] FILE..." >&2
	exit 2
}
opts=()
while [ $# -gt 0 ]; do
	case $1 in
	--time-order | --by-file) opts+=("$1"); shift ;;
	--export) [ $# -ge 3 ] || usage; opts+=("$1" "$2"); shift 2 ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ] || [ "${1#-}" != "$1" ]; then usage; fi

skip() { echo "speedscope-load: $*: skipped" >&2; exit 77; }
chrome=
for c in chromium chromium-browser google-chrome; do
	chrome=$(command -v "$c") && break
done
[ -n "$chrome" ] || skip "chromium is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"

"$here/npm-fetch.sh" speedscope "$version" "$integrity" "$dir" \
    dist/release/index.html
case $? in
0) ;;
77) exit 77 ;;
*) exit 2 ;;
esac

exec python3 "$here/speedscope_load.py" ${opts[@]+"${opts[@]}"} "$chrome" \
	"$dir/dist/release/index.html" "$@"
