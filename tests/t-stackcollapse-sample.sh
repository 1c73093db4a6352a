#!/usr/bin/env bash
# stackcollapse-sample: the samples of FlameGraph's stackcollapse-sample.awk,
# counts conserved (less what is reported as dropped), damaged input never
# crashes or gives malformed output, write errors reported.
# usage: tests/t-stackcollapse-sample.sh BUILDDIR
set -u
b=${1:?usage: $0 BUILDDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/testdata/stackcollapse-sample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
t=$b/stackcollapse-sample

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; }
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$@"; }
valid() {
	awk '!/^[^;]+(;[^;]+)* [0-9]+$/ { bad = 1 } END { exit bad }' "$1"
}
crashed() { [ "$1" -ge 124 ] || grep -qE 'Sanitizer|runtime error' "$2"; }

# the test report holds 1429 samples of work (stackcollapse-sample.awk's
# count; inferno's results add up to 1411)
for o in "" --no-modules; do
	"$t" $o "$d/sample.txt" >"$tmp/out" 2>/dev/null
	got=$(total "$tmp/out")
	if [ "$got" = 1429 ]; then ok "sample $o counts 1429 samples"
	else fail "sample $o counts $got samples, not 1429"; fi
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
		if [ "$got" = "$want" ]; then ok "sample conserves $(basename "$f") $o ($got)"
		else fail "sample conserves $(basename "$f") $o: got $got, want $want"; fi
	done
done

# damaged input
cat "$d/sample.txt" "$d/differences.txt" >"$tmp/src"
size=$(wc -c <"$tmp/src")
bad=0
for cut in 1 13 301 999 1500 4093 8191 15000 22000 $((size - 3)); do
	head -c "$cut" "$tmp/src" >"$tmp/in"
	awk -v k=$((cut % 5 + 2)) 'NR % k == 0 { next } { print }
	    NR % (k + 4) == 0 { print }' "$tmp/src" >"$tmp/in2"
	sed "$((cut % 50 + 20))s/  / /" "$tmp/src" >"$tmp/in3"
	for f in "$tmp/in" "$tmp/in2" "$tmp/in3"; do
		for o in "" --no-modules; do
			"$t" $o "$f" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if crashed $rc "$tmp/err" || [ $rc -gt 1 ] ||
			    ! valid "$tmp/out"; then
				bad=1
				echo "# cut $cut $o: status $rc"
			fi
		done
	done
done
if [ $bad = 0 ]; then ok "sample damaged input (cut 30 ways)"
else fail "sample damaged input"; fi

awk 'BEGIN { srand(13); print "Call graph:"; for (i = 0; i < 200000; i++) {
	c = int(rand() * 40); printf "%s", c < 30 ? substr("    +|:!1 9a(in )`;L", c % 20 + 1, 1) : (c < 37 ? "\n    " : sprintf("%c", int(rand() * 255) + 1)) } }' >"$tmp/rand"
for o in "" --no-modules; do
	"$t" $o "$tmp/rand" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if ! crashed $rc "$tmp/err" && [ $rc -le 1 ] && valid "$tmp/out"; then
		ok "sample random bytes $o (status $rc)"
	else fail "sample random bytes $o (status $rc)"; fi
done

if [ -w /dev/full ]; then
	"$t" "$d/sample.txt" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'write error\|No space' "$tmp/err"; then
		ok "sample write error"
	else fail "sample write error (status $rc)"; fi
fi
