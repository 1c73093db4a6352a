#!/usr/bin/env bash
# stackcollapse-speedscope and folded2speedscope beyond golden files:
# - every speedscope file of testdata read by the real speedscope app
#   (tests/speedscope-load.sh: headless Chromium) has the total we read,
#   profile by profile, in nanoseconds where the unit is a time;
# - folded2speedscope's output of real captures opens in speedscope with
#   the right total and unit;
# - written and read back, every profile is the same stacks and counts.
# The browser checks are skipped under the sanitizer run, and when
# chromium or npm is absent outside CI.
# usage: tests/t-speedscope.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="speedscope: "
d=$top/testdata/stackcollapse-speedscope
export LC_ALL=C

# read, written, read back: the same stacks and counts
for f in "$d"/*.json; do
	n=${f##*/}
	stackcollapse-speedscope "$f" >"$tmp/a" 2>/dev/null
	[ -s "$tmp/a" ] || continue
	folded2speedscope "$tmp/a" | stackcollapse-speedscope >"$tmp/b" 2>"$tmp/e"
	# "none" counts come back as samples: no unit line either way
	compare "$n read, written and read back" "$tmp/a" "$tmp/b"
done
for f in foldtop/capture.folded stackcollapse-chrome/cpu.cpuprofile; do
	case $f in
	*.folded) cp "testdata/$f" "$tmp/c" ;;
	*) stackcollapse-chrome --time "testdata/$f" >"$tmp/c" ;;
	esac
	folded2speedscope "$tmp/c" | stackcollapse-speedscope >"$tmp/d"
	# microseconds are read back as nanoseconds
	if grep -q '^# unit=microseconds 0$' "$tmp/c"; then
		awk '/^# unit=/ { print "# unit=nanoseconds 0"; next }
		    { $NF = $NF * 1000; print }' "$tmp/c" >"$tmp/c2"
		mv "$tmp/c2" "$tmp/c"
	fi
	compare "$f: folded2speedscope, read back" "$tmp/c" "$tmp/d"
done

plain_only "browser checks skipped under the sanitizer run"
need_browser
need npm "speedscope comes from npm"
need python3

# The total of folded text in nanoseconds or its own unit, against
# speedscope's, within a nanosecond a stack (speedscope adds doubles).
agree() { # name folded
	awk -F'\t' -v f="$2" '
	BEGIN {
		scale["seconds"] = 1e9; scale["milliseconds"] = 1e6
		scale["microseconds"] = 1e3; scale["nanoseconds"] = 1
		k = 1
		while ((getline l < f) > 0) {
			if (l ~ /^# unit=/) {
				u = substr(l, 8); sub(/ 0$/, "", u)
				k = u in scale ? scale[u] : 1
				continue
			}
			n = split(l, a, " "); ours += a[n]; stacks++
		}
		ours *= k
	}
	{ theirs += $2 * ($3 in scale ? scale[$3] : 1) }
	END {
		d = ours - theirs; if (d < 0) d = -d
		if (d > stacks + 1e-9 * ours) {
			printf "ours %.0f, speedscope %.0f\n", ours, theirs
			exit 1
		}
	}' "$tmp/load"
}

# speedscope's own files, then what folded2speedscope wrote of captures
files=() names=()
for f in "$d"/*.json; do
	n=${f##*/}
	case $n in invalid-*|bad.*) continue ;; esac
	files+=("$f") names+=("$n")
done
ours=(foldtop/capture.folded stackcollapse-chrome/cpu.cpuprofile
    stackcollapse-perf/captures/go.perf.gz)
for i in "${!ours[@]}"; do
	f=${ours[i]}
	case $f in
	*.folded) cp "testdata/$f" "$tmp/c$i" ;;
	*.cpuprofile) stackcollapse-chrome --time "testdata/$f" >"$tmp/c$i" ;;
	*) stackcollapse-perf "testdata/$f" >"$tmp/c$i" ;;
	esac
	folded2speedscope --name t "$tmp/c$i" >"$tmp/c$i.speedscope.json"
	files+=("$tmp/c$i.speedscope.json")
done
speedscope_each "${files[@]}"

for k in "${!names[@]}"; do
	n=${names[k]}
	speedscope_opened $((k + 1)) "$n: speedscope opens it" || continue
	stackcollapse-speedscope "${files[k]}" >"$tmp/ours" 2>/dev/null
	check "$n: our total is speedscope's" agree "$n" "$tmp/ours"
done

for i in "${!ours[@]}"; do
	f=${ours[i]}
	speedscope_opened $((${#names[@]} + i + 1)) \
	    "$f: speedscope opens what folded2speedscope wrote" || continue
	unit=$(sed -n 's/^# unit=\(.*\) 0$/\1/p' "$tmp/c$i")
	case $unit in
	nanoseconds|microseconds|milliseconds|seconds|bytes) ;;
	*) unit=none ;;
	esac
	equal "$f: speedscope's unit" "$(cut -f3 "$tmp/load")" "$unit"
	check "$f: speedscope's total is the folded total" agree "$f" "$tmp/c$i"
done
