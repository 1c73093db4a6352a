#!/usr/bin/env bash
# stackcollapse-dtrace: inferno's expected results, counts conserved (less
# what is reported as dropped), damaged input never crashes or gives
# malformed output, write errors reported.
# usage: tests/t-stackcollapse-dtrace.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/stackcollapse-dtrace
t=$b/stackcollapse-dtrace

# inferno's expected results, sorted as we write them
while read -r opts in; do
	[ "$opts" = - ] && opts=
	"$t" $opts "$d/$in" >"$tmp/out" 2>/dev/null </dev/null
	tr -d '\r' <"$d/inferno/$in" | sort >"$tmp/want"
	compare "dtrace $opts $in is inferno's" "$tmp/want" "$tmp/out"
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
		equal "dtrace conserves ${f##*/} $o ($got)" "$got" "$want"
	done
done

# damaged input
cat "$d"/stack-ustack.txt "$d"/rust-names.txt "$d"/jstack-inline.txt \
    "$d"/hex-addresses.txt >"$tmp/src"
size=$(wc -c <"$tmp/src")
bad=0
for cut in 1 13 301 999 4093 8191 12000 15000 $((size - 3)); do
	damage "$tmp/src" "$cut" $((cut % 5 + 2)) 4
	for f in "$tmp/in" "$tmp/in2"; do
		for o in "" --includeoffset; do
			sound "$t" $o "$f" ||
			    { bad=1; note "cut $cut $o: status $rc"; }
		done
	done
done
verdict "dtrace damaged input (cut 18 ways)" $bad

awk 'BEGIN { srand(11); for (i = 0; i < 200000; i++) {
	c = int(rand() * 40); printf "%s", c < 30 ? substr("ab`+:;(<->L0x1 ", c % 15 + 1, 1) : (c < 36 ? "\n" : sprintf("%c", int(rand() * 255) + 1)) } }' >"$tmp/rand"
for o in "" --includeoffset; do
	sound "$t" $o "$tmp/rand"
	verdict "dtrace random bytes $o (status $rc)" $?
done

full_disk "dtrace write error" 1 "$t" "$d/rust-names.txt"
