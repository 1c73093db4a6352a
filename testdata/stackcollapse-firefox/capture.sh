#!/bin/sh
# Re-makes the Firefox profiler captures of this directory with Debian's
# firefox-esr (apt-get install -y firefox-esr if it is missing), headless.
# Firefox runs on page.html from a scratch directory that is renamed
# /opt/demo in the captures, so that they name no local path.
#   startup.json.gz     MOZ_PROFILER_STARTUP, features js,cpu, threads
#                       "GeckoMain,DOM Worker"; -screenshot quits Firefox
#                       and MOZ_PROFILER_SHUTDOWN writes the profile
#   worker.json         the same with threads "DOM Worker" only
#   worker-symbolicated.json.gz  the same with js,stackwalk,cpu and
#                       MOZ_PROFILER_SYMBOLICATE=1
#   worker-stackwalk.json.gz  MOZ_PROFILER_STARTUP, js,stackwalk,cpu,
#                       threads "DOM Worker", on page.html?loop; SIGUSR2
#                       makes the running Firefox write the profile into
#                       MOZ_UPLOAD_DIR, then Firefox is killed
# Each run uses a new Firefox profile directory (user.js below) that one
# unprofiled -screenshot run has warmed up first: a cold one adds a first
# run's work and makes the files much bigger.
# Then summary.py prints the facts that README quotes.
set -eu
cd "$(dirname "$0")"
command -v firefox-esr >/dev/null 2>&1 || apt-get install -y firefox-esr
work=$(mktemp -d)
ffpid=
cleanup() {
	[ -z "$ffpid" ] || kill "$ffpid" 2>/dev/null || :
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
cp page.html "$work/"
page="file://$work/page.html"
clean() { sed "s|$work|/opt/demo|g" >"$1"; }

# newprof DIR: a Firefox profile directory with fewer helper processes and
# no first-run chores, warmed up by one run without the profiler.
newprof() {
	rm -rf "$1"
	mkdir -p "$1"
	cat >"$1/user.js" <<'EOF'
user_pref("dom.ipc.processPrelaunch.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("app.update.enabled", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
EOF
	timeout -s KILL 60 firefox-esr --headless --no-remote --profile "$1" \
	    -screenshot "$work/warm.png" "$page" >/dev/null 2>&1 || :
}

# shot NAME FEATURES THREADS [VAR=VALUE...]: profile from startup to the
# orderly quit that -screenshot makes once it has its picture. A signal
# (timeout's TERM, INT, HUP) kills Firefox without the shutdown profile.
# About one run in fifteen hangs before the picture: try again.
shot() {
	n=$1 features=$2 threads=$3
	shift 3
	try=1
	while :; do
		newprof "$work/$n.prof"
		rm -f "$work/$n.json"
		env "$@" MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_STARTUP_INTERVAL=1 \
		    MOZ_PROFILER_STARTUP_FEATURES="$features" \
		    MOZ_PROFILER_STARTUP_FILTERS="$threads" \
		    MOZ_PROFILER_SHUTDOWN="$work/$n.json" \
		    timeout -s KILL 90 firefox-esr --headless --no-remote \
		    --profile "$work/$n.prof" -screenshot "$work/$n.png" "$page" \
		    >/dev/null 2>&1 || :
		[ ! -s "$work/$n.json" ] || break
		[ $try -lt 3 ] || { echo "$0: no profile for $n" >&2; exit 1; }
		try=$((try + 1))
	done
	rm -rf "$work/$n.prof"
}

# dump NAME FEATURES THREADS SECONDS: profile from startup of a Firefox
# left running on page.html?loop; after SECONDS, SIGUSR2 makes it write
# the profile as MOZ_UPLOAD_DIR/profile_0_PID.json and stop the profiler.
dump() {
	n=$1 features=$2 threads=$3 secs=$4
	newprof "$work/$n.prof"
	mkdir -p "$work/$n.up"
	MOZ_UPLOAD_DIR="$work/$n.up" MOZ_PROFILER_STARTUP=1 \
	    MOZ_PROFILER_STARTUP_INTERVAL=1 \
	    MOZ_PROFILER_STARTUP_FEATURES="$features" \
	    MOZ_PROFILER_STARTUP_FILTERS="$threads" \
	    firefox-esr --headless --no-remote --profile "$work/$n.prof" \
	    "$page?loop" >/dev/null 2>&1 &
	ffpid=$!
	sleep "$secs"
	kill -USR2 "$ffpid"
	i=0 last=-1
	while :; do
		sleep 1
		i=$((i + 1))
		size=0
		for f in "$work/$n.up"/*.json; do
			[ ! -f "$f" ] || size=$(wc -c <"$f")
		done
		[ "$size" -gt 0 ] && [ "$size" = "$last" ] && break
		last=$size
		[ $i -lt 60 ] || { echo "$0: no profile for $n" >&2; exit 1; }
	done
	kill "$ffpid" 2>/dev/null || :
	wait "$ffpid" 2>/dev/null || :
	ffpid=
	mv "$work/$n.up"/*.json "$work/$n.json"
	rm -rf "$work/$n.prof" "$work/$n.up"
}

shot startup js,cpu "GeckoMain,DOM Worker"
clean startup.json <"$work/startup.json"
gzip -9nf startup.json

shot worker js,cpu "DOM Worker"
clean worker.json <"$work/worker.json"

shot worker-symbolicated js,stackwalk,cpu "DOM Worker" \
    MOZ_PROFILER_SYMBOLICATE=1
clean worker-symbolicated.json <"$work/worker-symbolicated.json"
gzip -9nf worker-symbolicated.json

dump worker-stackwalk js,stackwalk,cpu "DOM Worker" 6
clean worker-stackwalk.json <"$work/worker-stackwalk.json"
gzip -9nf worker-stackwalk.json

python3 summary.py startup.json.gz worker.json worker-symbolicated.json.gz \
    worker-stackwalk.json.gz
