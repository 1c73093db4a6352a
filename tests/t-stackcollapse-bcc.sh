#!/usr/bin/env bash
# stackcollapse-bcc: counts are conserved (less what is reported as
# dropped), damaged input never crashes or gives malformed output, write
# errors are reported. usage: tests/t-stackcollapse-bcc.sh BUILDDIR
set -u
b=${1:?usage: $0 BUILDDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/testdata/stackcollapse-bcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
t=$b/stackcollapse-bcc

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; }
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$@"; }

# multi-line forms: the sum of the count lines
for f in offcputime.txt.gz offcputime-v.txt.gz py-offcputime.txt \
    py-profile.txt py-offwaketime.txt py-wakeuptime.txt py-stackcount.txt; do
	want=$(gzip -dcf "$d/$f" | awk '/^[ \t]+[0-9]+$/ { s += $1 }
	    END { printf "%d\n", s }')
	for o in "" --kernel --pid; do
		"$t" $o "$d/$f" >"$tmp/out" 2>/dev/null
		got=$(total "$tmp/out")
		if [ "$got" = "$want" ]; then ok "bcc conserves $f $o ($got)"
		else fail "bcc conserves $f $o: got $got, want $want"; fi
	done
done

# bpftrace: the sum of the values of entries with a stack, and what is
# reported as dropped for the others
for f in bpftrace-profile bpftrace-perf bpftrace-cs; do
	want=$(gzip -dc "$d/$f.txt.gz" | awk '/\]: [0-9]+$/ { s += $NF }
	    END { printf "%d\n", s }')
	"$t" --kernel "$d/$f.txt.gz" >"$tmp/out" 2>"$tmp/err"
	got=$(total "$tmp/out")
	dropped=$(sed -n 's/.*dropped (count \([0-9]*\)).*/\1/p' "$tmp/err")
	got=$((got + ${dropped:-0}))
	if [ "$got" = "$want" ]; then ok "bcc conserves $f ($got)"
	else fail "bcc conserves $f: got $got, want $want"; fi
done

# the unit is kept: libbpf offcputime prints microseconds
"$t" "$d/offcputime.txt.gz" "$d/offcputime.txt.gz" >"$tmp/two" 2>/dev/null
"$t" "$d/offcputime.txt.gz" >"$tmp/one" 2>/dev/null
if [ "$(total "$tmp/two")" = $(( $(total "$tmp/one") * 2 )) ]; then
	ok "bcc sums the same stacks across files"
else fail "bcc sums across files"; fi

# a file and standard input give the same bytes
"$t" --kernel "$d/bpftrace-perf.txt.gz" >"$tmp/a" 2>/dev/null
gzip -dc "$d/bpftrace-perf.txt.gz" | "$t" --kernel >"$tmp/b" 2>/dev/null
if cmp -s "$tmp/a" "$tmp/b"; then ok "bcc file and stdin agree"
else fail "bcc file and stdin differ"; fi

# damaged input
valid() {
	awk '!/^[^;]+(;[^;]+)* [0-9]+(\.[0-9]+)?$/ { bad = 1 } END { exit bad }' "$1"
}
crashed() { [ "$1" -ge 124 ] || grep -qE 'Sanitizer|runtime error' "$2"; }
{
	gzip -dc "$d/offcputime-v.txt.gz" "$d/wakeuptime.txt.gz" \
	    "$d/bpftrace-cs.txt.gz" "$d/bpftrace-perf.txt.gz"
	cat "$d/py-offwaketime.txt" "$d/py-stackcount.txt" "$d/bpftrace-edge.txt"
} | head -c 80000 >"$tmp/src"
bad=0
for cut in 1 13 301 999 4093 8191 15000 31111 50000 79999; do
	head -c "$cut" "$tmp/src" >"$tmp/in"
	awk -v k=$((cut % 5 + 2)) 'NR % k == 0 { next } { print }
	    NR % (k + 4) == 0 { print }' "$tmp/src" >"$tmp/in2"
	for f in "$tmp/in" "$tmp/in2"; do
		for o in "" "--kernel --pid" "--map @"; do
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
if [ $bad = 0 ]; then ok "bcc damaged input (cut 20 ways)"
else fail "bcc damaged input"; fi

awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 255) + 1 }' >"$tmp/rand"
"$t" "$tmp/rand" >"$tmp/out" 2>"$tmp/err"
rc=$?
if ! crashed $rc "$tmp/err" && [ $rc -le 1 ] && valid "$tmp/out"; then
	ok "bcc random bytes (status $rc)"
else fail "bcc random bytes (status $rc)"; fi

if [ -w /dev/full ]; then
	"$t" "$d/wakeuptime.txt.gz" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'write error\|No space' "$tmp/err"; then
		ok "bcc write error"
	else fail "bcc write error (status $rc)"; fi
fi
