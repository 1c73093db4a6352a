#!/bin/sh
# Re-makes the captures of this directory (node and chromium from Debian;
# apt-get install -y chromium if it is missing). The programs run from a
# scratch directory that is renamed /opt/demo in the captures, so that they
# name no local path.
#   devtools-trace.json.gz  headless Chromium tracing page.html over the
#                        DevTools protocol as the Performance panel does
#                        (trace.js): {"traceEvents":[...],"metadata":{...}}
#   array-trace.json     the same with fewer categories, as a bare array of
#                        the events exactly as Chromium sent them
#   startup-trace.json.gz  chromium --trace-startup on page.html: Chromium's
#                        own JSON writer, with its big "metadata"
#   node-trace.json      node --trace-event-categories on work.js
# Then summary.py prints the facts that README quotes.
set -eu
CATS='-*,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,v8.execute,disabled-by-default-v8.cpu_profiler,blink.user_timing,v8,blink,loading,latencyInfo,toplevel'
SMALL='-*,devtools.timeline,disabled-by-default-v8.cpu_profiler,v8.execute'
STARTUP='-*,devtools.timeline,v8.execute,disabled-by-default-v8.cpu_profiler,blink.user_timing'
cd "$(dirname "$0")"
command -v chromium >/dev/null 2>&1 || apt-get install -y chromium
chromium=$(command -v chromium)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp page.html trace.js work.js "$work/"
clean() { sed "s|$work|/opt/demo|g" >"$1"; }

node "$work/trace.js" "$chromium" "file://$work/page.html" "$CATS" |
	clean devtools-trace.json
gzip -9nf devtools-trace.json
node "$work/trace.js" --array "$chromium" "file://$work/page.html" "$SMALL" |
	clean array-trace.json

# --trace-startup-format=json: the default is now Perfetto's protobuf.
# Headless Chromium writes the file after --trace-startup-duration seconds
# but does not exit: wait for the file to stop growing, then stop it.
"$chromium" --headless=new --no-sandbox --disable-gpu \
    --user-data-dir="$work/ud" --trace-startup="$STARTUP" \
    --trace-startup-format=json --trace-startup-file="$work/startup.json" \
    --trace-startup-duration=3 "file://$work/page.html" >/dev/null 2>&1 &
pid=$!
n=0 last=-1
while :; do
	sleep 1
	n=$((n + 1))
	size=0
	[ ! -f "$work/startup.json" ] || size=$(wc -c <"$work/startup.json")
	[ "$size" -gt 0 ] && [ "$size" = "$last" ] && break
	last=$size
	[ $n -lt 60 ] || { echo "$0: no startup trace" >&2; kill "$pid"; exit 1; }
done
kill "$pid"
wait "$pid" || :
clean startup-trace.json <"$work/startup.json"
gzip -9nf startup-trace.json

(cd "$work" && node --trace-event-categories v8,node,node.async_hooks \
    --trace-event-file-pattern node-trace.json work.js >/dev/null)
clean node-trace.json <"$work/node-trace.json"

python3 summary.py devtools-trace.json.gz array-trace.json \
    startup-trace.json.gz node-trace.json
