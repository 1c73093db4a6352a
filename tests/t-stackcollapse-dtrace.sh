#!/usr/bin/env bash
# stackcollapse-dtrace: inferno's expected results, counts conserved (less
# what is reported as dropped), damaged input never crashes or gives
# malformed output, write errors reported.
# usage: tests/t-stackcollapse-dtrace.sh BUILDDIR
set -u
b=${1:?usage: $0 BUILDDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/testdata/stackcollapse-dtrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
t=$b/stackcollapse-dtrace

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; }
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$@"; }
valid() {
	awk '!/^[^;]+(;[^;]+)* [0-9]+$/ { bad = 1 } END { exit bad }' "$1"
}
crashed() { [ "$1" -ge 124 ] || grep -qE 'Sanitizer|runtime error' "$2"; }

# inferno's expected results, sorted as we write them
while read -r opts in; do
	[ "$opts" = - ] && opts=
	"$t" $opts "$d/$in" >"$tmp/out" 2>/dev/null </dev/null
	tr -d '\r' <"$d/inferno/$in" | sort >"$tmp/want"
	if cmp -s "$tmp/want" "$tmp/out"; then ok "dtrace $opts $in is inferno's"
	else fail "dtrace $opts $in differs from inferno"; diff "$tmp/want" "$tmp/out" | head -5; fi
done <<'LIST'
- java.txt
- hex-addresses.txt
--includeoffset flamegraph-bug.txt
- stack-ustack.txt
- scope_with_no_argument_list.txt
- rust-names.txt
LIST

# the values after the header, less what is reported as dropped
for f in "$d"/*.txt; do
	want=$(awk 'h && /^[ \t]*[0-9]+[ \t\r]*$/ { s += $1 } /^[ \t\r]*$/ { h = 1 }
	    END { printf "%d\n", s }' "$f")
	for o in "" --includeoffset; do
		"$t" $o "$f" >"$tmp/out" 2>"$tmp/err"
		dropped=$(sed -n 's/.*without a stack dropped (total \([0-9]*\)).*/\1/p' "$tmp/err")
		got=$(( $(total "$tmp/out") + ${dropped:-0} ))
		case $f in */bad.txt) want=7 ;; esac	# a value out of range
		if [ "$got" = "$want" ]; then ok "dtrace conserves $(basename "$f") $o ($got)"
		else fail "dtrace conserves $(basename "$f") $o: got $got, want $want"; fi
	done
done

# damaged input
cat "$d"/stack-ustack.txt "$d"/rust-names.txt "$d"/jstack-inline.txt \
    "$d"/hex-addresses.txt >"$tmp/src"
size=$(wc -c <"$tmp/src")
bad=0
for cut in 1 13 301 999 4093 8191 12000 15000 $((size - 3)); do
	head -c "$cut" "$tmp/src" >"$tmp/in"
	awk -v k=$((cut % 5 + 2)) 'NR % k == 0 { next } { print }
	    NR % (k + 4) == 0 { print }' "$tmp/src" >"$tmp/in2"
	for f in "$tmp/in" "$tmp/in2"; do
		for o in "" --includeoffset; do
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
if [ $bad = 0 ]; then ok "dtrace damaged input (cut 18 ways)"
else fail "dtrace damaged input"; fi

awk 'BEGIN { srand(11); for (i = 0; i < 200000; i++) {
	c = int(rand() * 40); printf "%s", c < 30 ? substr("ab`+:;(<->L0x1 ", c % 15 + 1, 1) : (c < 36 ? "\n" : sprintf("%c", int(rand() * 255) + 1)) } }' >"$tmp/rand"
for o in "" --includeoffset; do
	"$t" $o "$tmp/rand" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if ! crashed $rc "$tmp/err" && [ $rc -le 1 ] && valid "$tmp/out"; then
		ok "dtrace random bytes $o (status $rc)"
	else fail "dtrace random bytes $o (status $rc)"; fi
done

if [ -w /dev/full ]; then
	"$t" "$d/rust-names.txt" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'write error\|No space' "$tmp/err"; then
		ok "dtrace write error"
	else fail "dtrace write error (status $rc)"; fi
fi
