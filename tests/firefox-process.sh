#!/usr/bin/env bash
# Turns each Firefox profile IN into the processed format OUT with the
# Firefox Profiler's own code (tests/firefox_process.js), the package
# @firefox-devtools/profiler-cli 0.10.0 from npm (checked against its
# sha512), unpacked into $PROFILER_CLI_DIR (build/profiler-cli by
# default) and reused when present. Without node (or npm when the
# package is not there yet) it says so on standard error and exits 77
# (skipped).
# usage: tests/firefox-process.sh IN OUT [IN OUT ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${here%/*}
pkg=@firefox-devtools/profiler-cli version=0.10.0
integrity=sha512-f9fqdHh7B6ddQIYrwrEs4FE5D8BMOsXSorYF4NRFfwPaGikVBlhorBxHT7zrb6WMgJgKQYHC9kazkRjbItLx8Q==
dir=${PROFILER_CLI_DIR:-$top/build/profiler-cli}
bundle=$dir/dist/profiler-cli.js

[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] ||
	{ echo "usage: $0 IN OUT [IN OUT ...]" >&2; exit 2; }
skip() { echo "firefox-process: $*: skipped" >&2; exit 77; }
command -v node >/dev/null || skip "node is not installed"

"$here/npm-fetch.sh" "$pkg" "$version" "$integrity" "$dir" \
    dist/profiler-cli.js
case $? in
0) ;;
77) exit 77 ;;
*) exit 2 ;;
esac
status=0
while [ $# -gt 0 ]; do
	node "$here/firefox_process.js" "$bundle" "$1" "$2" || status=1
	shift 2
done
exit $status
