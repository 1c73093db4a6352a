#!/usr/bin/env bash
# stackcollapse-jfr reading recordings (testdata/stackcollapse-jfr/binary,
# made by its capture.sh with JDK 17), beyond golden files:
# - for each recording R and event type E it holds, `stackcollapse-jfr
#   --event E R.jfr` has the stacks that the text path has,
#   `jfr print --stack-depth 2048 --events E R.jfr | stackcollapse-jfr
#   --event E` (R.E.folded, from the printout kept as R.E.txt.gz), and
#   for events counted 1 a time the same bytes;
# - its weights are exact: the output equals R.E.exact, what
#   tests/jfr_json_oracle.py reads from `jfr print --json` (the JDK's own
#   parser, exact values), and with a JDK at hand the same is checked
#   live, --threads too;
# - a recording gzipped, and two recordings given as one stream (cat),
#   read as the recordings are; a recording cut short fails, keeping its
#   whole chunks.
# usage: tests/t-stackcollapse-jfr-binary.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="stackcollapse-jfr (recordings): "
d=$top/testdata/stackcollapse-jfr/binary
export LC_ALL=C

stacks() { sed 's/ [0-9]*$//' "$@"; }
rec() { # R: the recording's file, gzipped or not
	if [ -e "$d/$1.jfr" ]; then echo "$d/$1.jfr"; else echo "$d/$1.jfr.gz"; fi
}

for f in "$d"/*.folded; do
	b=$(basename "$f" .folded) r=${b%%.*} e=${b#*.}
	stackcollapse-jfr --event "$e" "$(rec "$r")" >"$tmp/got" 2>"$tmp/err"
	case $e in
	ExecutionSample | NativeMethodSample)
		compare "$r $e: the text path's bytes" "$f" "$tmp/got" ;;
	*)
		stacks "$f" >"$tmp/want"
		grep -v '^# unit=' "$tmp/got" | stacks >"$tmp/gots"
		grep -v '^# unit=' "$tmp/want" >"$tmp/wants"
		compare "$r $e: the text path's stacks" "$tmp/wants" "$tmp/gots" ;;
	esac
	if [ -e "$d/$b.exact" ]; then
		grep -v '^# unit=' "$tmp/got" >"$tmp/gotx"
		compare "$r $e: exact weights (jfr print --json)" \
		    "$d/$b.exact" "$tmp/gotx"
	fi
done

# recordings as a stream: gzipped, and two of them one after the other
r=$(rec lock)
gzip -dcf "$r" | gzip -9n >"$tmp/lock.jfr.gz"
stackcollapse-jfr --event ThreadPark "$r" >"$tmp/want" 2>/dev/null
stackcollapse-jfr --event ThreadPark "$tmp/lock.jfr.gz" >"$tmp/got" 2>/dev/null
compare "a gzipped recording" "$tmp/want" "$tmp/got"
gzip -dcf "$(rec cpu)" >"$tmp/cpu.jfr"
gzip -dcf "$r" >"$tmp/lock.jfr"
stackcollapse-jfr --event ExecutionSample "$tmp/cpu.jfr" "$tmp/lock.jfr" \
    >"$tmp/want" 2>/dev/null
cat "$tmp/cpu.jfr" "$tmp/lock.jfr" | stackcollapse-jfr \
    --event ExecutionSample >"$tmp/got" 2>/dev/null
compare "two recordings in one stream" "$tmp/want" "$tmp/got"

# cut short: whole chunks kept, the cut one named
size=$(wc -c <"$tmp/cpu.jfr")
head -c $((size - 1000)) "$tmp/cpu.jfr" >"$tmp/cut.jfr"
stackcollapse-jfr "$tmp/cut.jfr" >"$tmp/got" 2>"$tmp/err"
rc=$?
if [ "$rc" = 1 ] && grep -q "cut short" "$tmp/err"; then
	ok "a recording cut short fails, naming its chunk"
else
	notok "a recording cut short fails, naming its chunk" \
	    "status $rc: $(cat "$tmp/err")"
fi

# with a JDK: the exact reading, live, --threads too
if have jfr; then
	for r in cpu lock; do
		gzip -dcf "$(rec $r)" >"$tmp/$r.jfr"
		for ew in ExecutionSample: ObjectAllocationSample:weight \
		    JavaMonitorEnter:duration ThreadPark:duration; do
			e=${ew%%:*} w=${ew#*:}
			jfr print --json --stack-depth 2048 --events "$e" \
			    "$tmp/$r.jfr" | python3 "$top/tests/jfr_json_oracle.py" \
			    --threads ${w:+--weight "$w"} >"$tmp/want"
			[ -s "$tmp/want" ] || continue
			stackcollapse-jfr --threads --event "$e" "$tmp/$r.jfr" \
			    2>/dev/null | grep -v '^# unit=' >"$tmp/got"
			compare "$r $e --threads: jfr print --json, live" \
			    "$tmp/want" "$tmp/got"
		done
	done
fi
