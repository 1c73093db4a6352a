#!/bin/sh
# Installs what building and testing need on Debian (run as root), or says
# what to install. Used by `make deps`, the README and .ci/run.
pkgs="gcc make pkg-config libyajl-dev libprotobuf-c-dev protobuf-c-compiler
zlib1g-dev libdeflate-dev libxml2-dev libxml2-utils libpcre2-dev mandoc
python3 golang-go chromium clang libclang-rt-14-dev parallel openssh-server
openssh-client rsync strace"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
# npm fetches the speedscope app the speedscope tests open files in; a
# node from elsewhere brings its own
command -v npm >/dev/null || missing="$missing npm"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
else
	echo "missing packages; install them with:" >&2
	echo "  sudo apt-get install$missing" >&2
	exit 1
fi
