#!/usr/bin/env bash
# stackcollapse-firefox beyond golden files:
# - every capture, raw and processed, read with each option that renames
#   frames, equals what an independent reading gives
#   (tests/firefox_oracle.py: the whole document loaded with Python's
#   json, frames named by the Firefox Profiler's own regular expressions);
# - every sample of a raw capture is counted once;
# - each raw capture, turned into the processed format by the Firefox
#   Profiler's own code (tests/firefox-process.sh, the profiler-cli
#   package from npm), gives the stacks of the raw capture, with and
#   without --lines: the frame names are the profiler's. Skipped under
#   the sanitizer run, and when node or npm is absent outside CI.
# usage: tests/t-stackcollapse-firefox.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="stackcollapse-firefox: "
d=$top/testdata/stackcollapse-firefox
export LC_ALL=C
need python3

for f in "$d"/*.json "$d"/*.json.gz "$d"/public/*.json "$d"/public/*.json.gz; do
	[ -e "$f" ] || continue
	n=${f#"$d"/}
	case $n in
	bad.json | cut.json | no-meta.json | not-object.json) continue ;;
	tracing-ms.json | bytes.json) continue ;;	# weights: goldens
	esac
	for o in "" --lines "--thread-root --no-jit"; do
		# shellcheck disable=SC2086
		python3 "$top/tests/firefox_oracle.py" $o "$f" >"$tmp/want"
		# shellcheck disable=SC2086
		stackcollapse-firefox $o "$f" >"$tmp/got" 2>"$tmp/err"
		compare "$n ${o:-(no option)}: as the independent reading" \
		    "$tmp/want" "$tmp/got"
	done
done

# every sample row with a stack, counted once: the totals of summary.py
for f in worker.json worker-stackwalk.json.gz startup.json.gz; do
	want=$(zcat -f "$d/$f" | python3 -c '
import json, sys
def walk(p):
    n = 0
    for t in p["threads"]:
        i = t["samples"]["schema"]["stack"]
        n += sum(1 for r in t["samples"]["data"] if r[i] is not None)
    return n + sum(walk(c) for c in p.get("processes", []))
print(walk(json.load(sys.stdin)))')
	got=$(stackcollapse-firefox "$d/$f" | awk '{ s += $NF } END { print s }')
	if [ "$want" = "$got" ]; then
		ok "$f: every sample counted once ($got)"
	else
		notok "$f: every sample counted once" "want $want, got $got"
	fi
done

plain_only "the profiler's own processing skipped under the sanitizer run"
for f in worker.json worker-symbolicated.json.gz worker-stackwalk.json.gz \
    startup.json.gz; do
	"$top/tests/firefox-process.sh" "$d/$f" "$tmp/processed.json" \
	    2>"$tmp/err"
	rc=$?
	if [ "$rc" = 77 ] && [ "${CI:-}" != true ]; then
		skip "$(cat "$tmp/err")"
		break
	elif [ "$rc" != 0 ]; then
		notok "$f: the profiler processes it" "$(cat "$tmp/err")"
		continue
	fi
	for o in "" --lines; do
		# shellcheck disable=SC2086
		stackcollapse-firefox $o "$d/$f" >"$tmp/want" 2>/dev/null
		# shellcheck disable=SC2086
		stackcollapse-firefox $o "$tmp/processed.json" >"$tmp/got" \
		    2>/dev/null
		compare "$f ${o:-(no option)}: the profiler's processed profile" \
		    "$tmp/want" "$tmp/got"
	done
done
