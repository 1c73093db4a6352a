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

fetch() { # npm pack into a scratch directory beside $dir, then rename
	local work tgz got
	command -v npm >/dev/null ||
		skip "npm is not installed (needed once, to fetch $pkg $version)"
	command -v python3 >/dev/null || skip "python3 is not installed"
	mkdir -p "$(dirname "$dir")" || return 1
	work=$(mktemp -d "$dir.XXXXXX") || return 1
	if ! tgz=$(cd "$work" && npm pack --silent "$pkg@$version" 2>"$work/err") ||
	    ! [ -f "$work/$tgz" ]; then
		echo "firefox-process: npm pack $pkg@$version failed:" >&2
		cat "$work/err" >&2
		rm -rf "$work"
		return 1
	fi
	got=sha512-$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$work/$tgz")
	if [ "$got" != "$integrity" ]; then
		echo "firefox-process: $tgz: checksum $got, expected $integrity" >&2
		rm -rf "$work"
		return 1
	fi
	if ! mkdir "$work/pkg" ||
	    ! tar -xzf "$work/$tgz" -C "$work/pkg" --strip-components=1; then
		rm -rf "$work"
		return 1
	fi
	# another run may have filled the cache meanwhile: keep the first
	mv -T "$work/pkg" "$dir" 2>/dev/null || true
	rm -rf "$work"
	[ -f "$bundle" ]
}
if ! [ -f "$bundle" ] ||
    ! grep -q "\"version\": \"$version\"" "$dir/package.json" 2>/dev/null; then
	if [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
		echo "firefox-process: $dir holds no $pkg $version; remove it" >&2
		exit 2
	fi
	fetch || exit 2
fi
status=0
while [ $# -gt 0 ]; do
	node "$here/firefox_process.js" "$bundle" "$1" "$2" || status=1
	shift 2
done
exit $status
