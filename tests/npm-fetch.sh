#!/usr/bin/env bash
# Fetches an npm package the tests run (speedscope, the Firefox
# Profiler's code) into DIR, once: `npm pack PKG@VERSION`, checked
# against its sha512 INTEGRITY (as package-lock.json writes it), then
# unpacked; DIR is reused when its package.json names VERSION and FILE
# (a path in the package) is there. Exits 0 when DIR holds the package;
# 77 when npm (or python3) is missing and it is not there yet; 2 on a
# failure (said on standard error).
# usage: tests/npm-fetch.sh PKG VERSION INTEGRITY DIR FILE
set -u
[ $# = 5 ] || { echo "usage: $0 PKG VERSION INTEGRITY DIR FILE" >&2; exit 2; }
pkg=$1 version=$2 integrity=$3 dir=$4 file=$5
name=${0##*/}

if [ -f "$dir/$file" ] &&
    grep -q "\"version\": \"$version\"" "$dir/package.json" 2>/dev/null; then
	exit 0
fi
if [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
	echo "$name: $dir holds no $pkg $version; remove it" >&2
	exit 2
fi
for c in npm python3; do
	command -v $c >/dev/null || {
		echo "$name: $c is not installed (needed once, to fetch $pkg $version)" >&2
		exit 77
	}
done
# npm pack into a scratch directory beside $dir, then rename
mkdir -p "$(dirname "$dir")" || exit 2
work=$(mktemp -d "$dir.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
if ! tgz=$(cd "$work" && npm pack --silent "$pkg@$version" 2>"$work/err") ||
    ! [ -f "$work/$tgz" ]; then
	echo "$name: npm pack $pkg@$version failed:" >&2
	cat "$work/err" >&2
	exit 2
fi
got=sha512-$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$work/$tgz")
if [ "$got" != "$integrity" ]; then
	echo "$name: $tgz: checksum $got, expected $integrity" >&2
	exit 2
fi
mkdir "$work/pkg" &&
    tar -xzf "$work/$tgz" -C "$work/pkg" --strip-components=1 || exit 2
# another run may have filled the cache meanwhile: keep the first
mv -T "$work/pkg" "$dir" 2>/dev/null || true
[ -f "$dir/$file" ] || { echo "$name: $pkg $version has no $file" >&2; exit 2; }
