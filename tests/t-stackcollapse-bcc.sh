#!/usr/bin/env bash
# stackcollapse-bcc: counts are conserved (less what is reported as
# dropped), damaged input never crashes or gives malformed output, write
# errors are reported. usage: tests/t-stackcollapse-bcc.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/stackcollapse-bcc
t=$b/stackcollapse-bcc

# multi-line forms: the sum of the count lines
for f in offcputime.txt.gz offcputime-v.txt.gz py-offcputime.txt \
    py-profile.txt py-offwaketime.txt py-wakeuptime.txt py-stackcount.txt; do
	want=$(gzip -dcf "$d/$f" | awk '/^[ \t]+[0-9]+$/ { s += $1 }
	    END { printf "%d\n", s }')
	for o in "" --kernel --pid; do
		"$t" $o "$d/$f" >"$tmp/out" 2>/dev/null
		got=$(total "$tmp/out")
		equal "bcc conserves $f $o ($got)" "$got" "$want"
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
	equal "bcc conserves $f ($got)" "$got" "$want"
done

# the unit is kept: libbpf offcputime prints microseconds
"$t" "$d/offcputime.txt.gz" "$d/offcputime.txt.gz" >"$tmp/two" 2>/dev/null
"$t" "$d/offcputime.txt.gz" >"$tmp/one" 2>/dev/null
check "bcc sums the same stacks across files" \
    [ "$(total "$tmp/two")" = $(( $(total "$tmp/one") * 2 )) ]

# a file and standard input give the same bytes
"$t" --kernel "$d/bpftrace-perf.txt.gz" >"$tmp/a" 2>/dev/null
gzip -dc "$d/bpftrace-perf.txt.gz" | "$t" --kernel >"$tmp/b" 2>/dev/null
compare "bcc file and stdin agree" "$tmp/a" "$tmp/b"

# damaged input (a count may have a fraction, as in bad.txt)
count_re='[0-9]+([.][0-9]+)?'
{
	gzip -dc "$d/offcputime-v.txt.gz" "$d/wakeuptime.txt.gz" \
	    "$d/bpftrace-cs.txt.gz" "$d/bpftrace-perf.txt.gz"
	cat "$d/py-offwaketime.txt" "$d/py-stackcount.txt" "$d/bpftrace-edge.txt"
} | head -c 80000 >"$tmp/src"
bad=0
for cut in 1 13 301 999 4093 8191 15000 31111 50000 79999; do
	damage "$tmp/src" "$cut" $((cut % 5 + 2)) 4
	for f in "$tmp/in" "$tmp/in2"; do
		for o in "" "--kernel --pid" "--map @"; do
			sound "$t" $o "$f" ||
			    { bad=1; note "cut $cut $o: status $rc"; }
		done
	done
done
verdict "bcc damaged input (cut 20 ways)" $bad

awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 255) + 1 }' >"$tmp/rand"
sound "$t" "$tmp/rand"
verdict "bcc random bytes (status $rc)" $?

full_disk "bcc write error" 1 "$t" "$d/wakeuptime.txt.gz"
