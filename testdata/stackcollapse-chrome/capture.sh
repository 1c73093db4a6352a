#!/bin/sh
# Re-makes the captures of this directory (node and chromium from Debian).
# The programs run from a scratch directory that is renamed /opt/demo in
# the captures, so that they name no local path.
#   cpu.cpuprofile       node --cpu-prof: CPU-bound named functions
#   closures.cpuprofile.gz  node --cpu-prof: anonymous functions, closures,
#                        methods, a class
#   async.cpuprofile     node --cpu-prof: async/await, timers, garbage:
#                        (idle), (program), (garbage collector)
#   devtools.json        headless Chromium profiling page.html over the
#                        DevTools protocol: the Profiler.stop reply
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp cpu.js closures.js async.js devtools.js page.html "$work/"
clean() { sed "s|$work|/opt/demo|g" >"$1"; }
prof() { # name script args...
	n=$1; shift
	rm -rf "$work/prof"
	(cd "$work" && node --cpu-prof --cpu-prof-dir=prof \
	    --cpu-prof-interval 250 "$@" >/dev/null)
	cat "$work"/prof/*.cpuprofile | clean "$n.cpuprofile"
}
prof cpu cpu.js 1500
prof closures closures.js 1500
gzip -9n closures.cpuprofile && rm -f closures.cpuprofile
prof async async.js
node "$work/devtools.js" "$(command -v chromium)" "file://$work/page.html" |
	clean devtools.json
