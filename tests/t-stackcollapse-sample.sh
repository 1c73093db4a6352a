#!/usr/bin/env bash
# stackcollapse-sample: the samples of FlameGraph's stackcollapse-sample.awk,
# counts conserved (less what is reported as dropped), damaged input never
# crashes or gives malformed output, write errors reported.
# usage: tests/t-stackcollapse-sample.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/stackcollapse-sample
t=$b/stackcollapse-sample

# the test report holds 1429 samples of work (stackcollapse-sample.awk's
# count; inferno's results add up to 1411)
for o in "" --no-modules; do
	"$t" $o "$d/sample.txt" >"$tmp/out" 2>/dev/null
	got=$(total "$tmp/out")
	equal "sample $o counts 1429 samples" "$got" "1429"
done

# the threads' samples: the output, the idle stacks and the samples
# next to skipped lines
for f in "$d"/*.txt; do
	want=$(awk '/^Call graph:/ { g = 1; next } /^Total number/ { g = 0 }
	    g && /^    [0-9]+ / { s += $1 } END { printf "%d\n", s }' "$f")
	for o in "" --no-modules; do
		"$t" $o "$f" >"$tmp/out" 2>"$tmp/err"
		idle=$(sed -n 's/.*waiting threads dropped (\([0-9]*\) samples).*/\1/p' "$tmp/err")
		skip=$(sed -n 's/.*: \([0-9]*\) samples next to skipped lines dropped/\1/p' "$tmp/err")
		got=$(( $(total "$tmp/out") + ${idle:-0} + ${skip:-0} ))
		equal "sample conserves ${f##*/} $o ($got)" "$got" "$want"
	done
done

# damaged input
cat "$d/sample.txt" "$d/differences.txt" >"$tmp/src"
size=$(wc -c <"$tmp/src")
bad=0
for cut in 1 13 301 999 1500 4093 8191 15000 22000 $((size - 3)); do
	damage "$tmp/src" "$cut" $((cut % 5 + 2)) 4
	sed "$((cut % 50 + 20))s/  / /" "$tmp/src" >"$tmp/in3"
	for f in "$tmp/in" "$tmp/in2" "$tmp/in3"; do
		for o in "" --no-modules; do
			sound "$t" $o "$f" ||
			    { bad=1; note "cut $cut $o: status $rc"; }
		done
	done
done
verdict "sample damaged input (cut 30 ways)" $bad

awk 'BEGIN { srand(13); print "Call graph:"; for (i = 0; i < 200000; i++) {
	c = int(rand() * 40); printf "%s", c < 30 ? substr("    +|:!1 9a(in )`;L", c % 20 + 1, 1) : (c < 37 ? "\n    " : sprintf("%c", int(rand() * 255) + 1)) } }' >"$tmp/rand"
for o in "" --no-modules; do
	sound "$t" $o "$tmp/rand"
	verdict "sample random bytes $o (status $rc)" $?
done

full_disk "sample write error" 1 "$t" "$d/sample.txt"
