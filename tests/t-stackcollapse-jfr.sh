#!/usr/bin/env bash
# stackcollapse-jfr: counts are conserved, damaged input never crashes or
# gives malformed output, write errors are reported.
# usage: tests/t-stackcollapse-jfr.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/stackcollapse-jfr
t=$b/stackcollapse-jfr

# every sample event with a stack is counted once
for f in cpu cpu-deep alloc-deep lock-deep; do
	for ev in jdk.ExecutionSample jdk.NativeMethodSample; do
		want=$(gzip -dc "$d/$f.txt.gz" | awk -v ev="$ev {" '
		    $0 == ev { e = 1; s = 0; next }
		    e && /^  stackTrace = \[/ { s = 1 }
		    e && /^}/ { n += s; e = 0 } END { print n + 0 }')
		"$t" --event "$ev" "$d/$f.txt.gz" >"$tmp/out" 2>/dev/null
		got=$(total "$tmp/out")
		equal "jfr conserves $ev in $f ($got)" "$got" "$want"
	done
done

# allocation weights: the sum of the printed weights, unit by unit
gzip -dc "$d/alloc-deep.txt.gz" >"$tmp/alloc.txt"
want=$(awk '$0 == "jdk.ObjectAllocationSample {" { e = 1; next }
    e && /^  weight = / { v = $3; u = $4
	m = u == "kB" ? 1024 : u == "MB" ? 1048576 : u == "GB" ? 1073741824 : 1
	s += int(v * m + 0.5) }
    /^}/ { e = 0 } END { printf "%d\n", s }' "$tmp/alloc.txt")
"$t" --event jdk.ObjectAllocationSample "$tmp/alloc.txt" >"$tmp/out" 2>/dev/null
got=$(total "$tmp/out")
equal "jfr allocation weights add up ($got bytes)" "$got" "$want"

# a file and standard input give the same bytes
"$t" --threads "$d/lock-deep.txt.gz" >"$tmp/a" 2>/dev/null
"$t" --threads <"$d/lock-deep.txt.gz" >"$tmp/b" 2>/dev/null
compare "jfr file and stdin agree" "$tmp/a" "$tmp/b"

# damaged input: cut at many points, lines dropped or doubled
gzip -dc "$d/lock-deep.txt.gz" | head -c 60000 >"$tmp/src"
size=$(wc -c <"$tmp/src")
bad=0
for cut in 1 17 333 1000 4097 9999 20011 33333 47000 59999; do
	damage "$tmp/src" "$cut" $((cut % 7 + 2)) 3
	for f in "$tmp/in" "$tmp/in2"; do
		for ev in JavaMonitorEnter ThreadPark JavaMonitorWait; do
			sound "$t" --event $ev --threads --lines "$f" ||
			    { bad=1; note "cut $cut $ev: status $rc"; }
		done
	done
done
verdict "jfr damaged input ($size bytes cut 20 ways)" $bad

# random bytes
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 255) + 1 }' >"$tmp/rand"
sound "$t" "$tmp/rand"
verdict "jfr random bytes (status $rc)" $?

# a full disk is an error with a message
full_disk "jfr write error" 1 "$t" "$d/cpu-deep.txt.gz"

# an absent --event names every type with stacks, past 12 "and N more";
# most frequent first, then by name
awk 'BEGIN { for (i = 1; i <= 14; i++) for (k = 0; k < (i > 10 ? 1 : i); k++)
	printf "jdk.T%02d {\n  startTime = 1\n  stackTrace = [\n    a.B.c() line: 1\n  ]\n}\n\n", i }' >"$tmp/types.txt"
"$t" --event jdk.Absent "$tmp/types.txt" >/dev/null 2>"$tmp/err"
want="$(basename "$t"): no jdk.Absent events; the input has jdk.T10 (10), jdk.T09 (9), jdk.T08 (8), jdk.T07 (7), jdk.T06 (6), jdk.T05 (5), jdk.T04 (4), jdk.T03 (3), jdk.T02 (2), jdk.T01 (1), jdk.T11 (1), jdk.T12 (1) and 2 more (choose with --event)"
equal "jfr names every event type" "$(head -n 1 "$tmp/err")" "$want"
