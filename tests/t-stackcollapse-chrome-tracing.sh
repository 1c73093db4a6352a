#!/usr/bin/env bash
# stackcollapse-chrome-tracing beyond golden files:
# - the sampled profiles of each capture equal what the .cpuprofile test
#   oracle reads from the same profiles cut out of the trace whole
#   (tests/trace_oracle.py, tests/chrome_oracle.py), counting samples
#   and microseconds;
# - the durations of every thread have the total speedscope gives the
#   thread (tests/speedscope-load.sh, headless Chromium), on speedscope's
#   own test traces and the node capture. Skipped under the sanitizer
#   run, and when chromium or npm is absent outside CI.
# usage: tests/t-stackcollapse-chrome-tracing.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="stackcollapse-chrome-tracing: "
d=$top/testdata/stackcollapse-chrome-tracing
export LC_ALL=C
need python3

sum() { awk '{ s[$0 ~ /^#/ ? $0 : substr($0, 1, length($0) - length($NF) - 1)] += $NF }
    END { for (k in s) print k, s[k] }' "$@" | sed 's/^\(# unit=.*\) 0 0$/\1 0/' | sort; }

for f in devtools-trace.json.gz array-trace.json startup-trace.json.gz; do
	rm -rf "$tmp/p" && mkdir "$tmp/p"
	python3 "$top/tests/trace_oracle.py" "$d/$f" "$tmp/p"
	for o in "" --time; do
		for p in "$tmp"/p/*.cpuprofile; do
			python3 "$top/tests/chrome_oracle.py" $o "$p"
		done | sum >"$tmp/want"
		stackcollapse-chrome-tracing $o "$d/$f" 2>/dev/null | sort >"$tmp/got"
		compare "$f: ${o:-samples} as the profiles cut out whole read" \
		    "$tmp/want" "$tmp/got"
	done
done

plain_only "browser checks skipped under the sanitizer run"
need_browser
need npm "speedscope comes from npm"

files=()
for f in "$d"/public/*.json "$d/node-trace.json"; do
	case $f in
	*simple-with-samples*) continue ;;	# samples/stackFrames: not read
	esac
	files+=("$f")
done
speedscope_each "${files[@]}"

for k in "${!files[@]}"; do
	f=${files[k]} n=${files[k]#"$d"/}
	speedscope_opened $((k + 1)) "$n: speedscope opens it" || continue
	# speedscope names a thread "... (pid P), ... (tid T)" or "pid P, tid T"
	sed -E 's/.*pid ([^,)]*).*tid ([^,)]*)\).*\t([0-9.]+)\tmicroseconds$/\1\/\2 \3/; s/^pid ([^,]*), tid ([^\t]*)\t([0-9.]+)\tmicroseconds$/\1\/\2 \3/' \
	    "$tmp/load" | awk '{ printf "%s %.10g\n", $1, $2 }' | sort >"$tmp/want"
	stackcollapse-chrome-tracing --durations --thread-root "$f" 2>/dev/null |
	    awk '!/^#/ { split($0, a, ";"); sub(/.*-/, "", a[1]); s[a[1]] += $NF }
		END { for (k in s) printf "%s %.10g\n", k, s[k] / 1000 }' |
	    sort >"$tmp/got"
	compare "$n: each thread's total is speedscope's" "$tmp/want" "$tmp/got"
done
