#!/usr/bin/env bash
# -j: an input read in parts on threads gives byte for byte what it gives
# read whole on one: stdout, stderr (warnings, their order and their
# lines) and the exit status, for every N, with pieces as small as one
# sample (FOLD_TEST_PIECE, bytes) and of a few KB. Over the real perf
# captures of testdata, uncompressed (gzip input is read by one thread),
# with the options that change names or pick samples, and over inputs
# made to reach what only the whole tells: bad lines in many pieces, an
# event first seen in a middle piece, samples without an event before
# ones with, a last sample cut short, --strict, a count that overflows.
# usage: tests/t-jobs.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="jobs: "
export LC_ALL=C
unset FOLD_TEST_PIECE FOLD_TEST_JOBS

run() { # out err tool args...: its exit status also in rc
	local o=$1 e=$2
	shift 2
	"$@" >"$o" 2>"$e"
	rc=$?
	echo "rc $rc" >>"$o"
}

# agree LABEL TOOLS PIECES ARGS...: a tool of TOOLS (comma-separated)
# run with -j1 ARGS, then with -j7 in pieces of the first size of PIECES
# (bytes, the smallest; 0: the default size) and -j2 in pieces of each
# other size (of one size: -j2 and -j7 in it), must write the same
# stdout and stderr and exit alike, and none may crash (tests/lib.sh's
# crashed: a signal, a hang, a sanitizer report); one check, named LABEL.
# TOOLS are one converter's doors (its own command, stackcollapse
# --format, stackcollapse detecting the format), one code path, as
# t-stackcollapse checks: each check runs one of them, the next in turn
# from one check to the next. Under the sanitizers a process costs ten
# times as much to start, and what they look for is the memory the
# threads touch, not whether the outputs agree, which the plain run
# checks in full: there it runs at -j7 in pieces of the first size only
# (as small as they come).
turn=0
agree() {
	local label=$1 pieces=$3 first jobs tool list=() j p k bad='' runs sums
	local files
	IFS=, read -r -a list <<<"$2"
	shift 3
	list=("${list[turn % ${#list[@]}]}")
	turn=$((turn + 1))
	sanitized && pieces=${pieces%% *}
	first=${pieces%% *}
	for tool in "${list[@]}"; do
		# shellcheck disable=SC2086
		run "$tmp/want" "$tmp/wanterr" $tool -j1 "$@"
		crashed "$rc" "$tmp/wanterr" && { bad="$tool -j1 crashed"; break; }
		runs=()
		for p in $pieces; do
			if [ "$p" != "$first" ]; then jobs=2
			elif [ "$p" = "$pieces" ] && ! sanitized; then jobs="2 7"
			else jobs=7
			fi
			for j in $jobs; do
				k=${#runs[@]}
				runs+=("$tool -j$j, pieces of $p")
				# shellcheck disable=SC2086
				FOLD_TEST_PIECE=$p run "$tmp/got$k" "$tmp/goterr$k" \
				    $tool -j$j "$@"
				if crashed "$rc" "$tmp/goterr$k"; then
					bad="${runs[k]}, crashed"
					break 3
				fi
			done
		done
		# every run's stdout and stderr against -j1's: one process
		# for them all, not a cmp each (processes are most of the time)
		files=(want wanterr)
		for k in "${!runs[@]}"; do files+=("got$k" "goterr$k"); done
		mapfile -t sums < <(cd "$tmp" && md5sum "${files[@]}")
		for k in "${!runs[@]}"; do
			if [ "${sums[2 * k + 2]%% *}" != "${sums[0]%% *}" ] ||
			    [ "${sums[2 * k + 3]%% *}" != "${sums[1]%% *}" ]; then
				bad="${runs[k]}, differs"
				break 2
			fi
		done
	done
	if [ -z "$bad" ]; then
		ok "$label"
		return
	fi
	notok "$label: $bad"
	case $bad in
	*differs)
		diff -u "$tmp/want" "$tmp/got$k" | head -n 10 | sed 's/^/# /'
		diff -u "$tmp/wanterr" "$tmp/goterr$k" | head -n 10 |
		    sed 's/^/# /'
		;;
	esac
}

# same NAME FILE ARGS...: agree in pieces of 1 and 4096 bytes, through
# each of $tools (by default stackcollapse-$format and the front door).
format=perf
tools=
same() {
	local name=$1 f=$2
	shift 2
	agree "$format: $name ${*:-(no option)}" \
	    "${tools:-stackcollapse-$format,stackcollapse --format $format}" \
	    "1 4096" "$@" "$f"
}

caps=$top/testdata/stackcollapse-perf/captures
for c in "$caps"/*.perf.gz; do
	n=$(basename "$c" .gz)
	gzip -dc "$c" >"$tmp/$n"
	same "$n" "$tmp/$n"
	same "$n" "$tmp/$n" --all --tid
	same "$n" "$tmp/$n" --inline --srcline
	same "$n" "$tmp/$n" --list-events
done
same two-events "$tmp/two-events.perf" --event-filter cpu-clock
same two-events "$tmp/two-events.perf" --samples --pid

# made inputs: SAMPLE COMM EVENT PERIOD writes one sample
sample() {
	printf '%s 1 [000] 1.%06d: %s %s:\n\t1 leaf (/bin/x)\n\t2 f%d (/bin/x)\n\t3 main (/bin/x)\n\n' \
	    "$1" "$4" "$3" "$2" "$(($4 % 7))"
}
{
	for i in $(seq 1 400); do
		sample java cycles "$i" "$i"
		[ $((i % 37)) = 0 ] && printf 'garbage line %d\n\n' "$i"
		[ $((i % 91)) = 0 ] && printf 'java 1 [000] 2.0: 1 cycles:\n\t\0 nul\n\n'
		[ "$i" = 250 ] && sample java instructions 7 "$i"
		[ "$i" = 300 ] && sample java branches 9 "$i"
		[ "$i" = 280 ] && sample java branch-misses 9 "$i"
	done
} >"$tmp/made.perf"
same "bad lines, events first seen late" "$tmp/made.perf"
same "bad lines, events first seen late" "$tmp/made.perf" --list-events
same "bad lines, events first seen late" "$tmp/made.perf" \
    --event-filter branches
same "bad lines, events first seen late" "$tmp/made.perf" --strict

{
	for i in $(seq 1 60); do
		printf 'java 1 [000] 1.%06d: 1 :\n\t1 leaf (/bin/x)\n\n' "$i"
	done
	for i in $(seq 1 60); do sample java cycles 5 "$i"; done
	sample java instructions 5 1
} >"$tmp/noevent.perf"
same "no event, then events" "$tmp/noevent.perf"
same "no event, then events" "$tmp/noevent.perf" --list-events

{
	for i in $(seq 1 80); do sample java cycles 3 "$i"; done
	printf 'java 1 [000] 9.000000: 3 cycles:\n\t1 leaf (/bin/x)\n'
} >"$tmp/cut.perf"
same "last sample cut short" "$tmp/cut.perf"

# pieces that begin with what would make a file gzip or UTF-16 (each
# in a file of its own: a piece that fails has the middle read again)
for m in '\376\377' '\377\376' '\037\213'; do
	{
		sample java cycles 1 1	# the file itself is plain text
		for i in $(seq 1 40); do
			sample "$(printf "${m}x")" cycles 1 "$i"
		done
	} >"$tmp/magic.perf"
	same "pieces that begin with $m" "$tmp/magic.perf"
done
{
	for i in $(seq 1 80); do sample java cycles 3 "$i"; done
	printf 'java 1 [000] 9.000000: 3 cycles:\n\t1 leaf (/bin/x)\n\n'
	printf 'java 1 [000] 9.000000: 3 cycles:\n\t1 leaf (/bin/x)\n'
} >"$tmp/cut2.perf"
same "last sample cut short, one line each" "$tmp/cut2.perf"

{
	for i in $(seq 1 50); do sample java cycles 1 "$i"; done
	sample java cycles 18446744073709551615 7
	for i in $(seq 1 50); do sample java cycles 1 "$i"; done
} >"$tmp/overflow.perf"
same "a count that overflows" "$tmp/overflow.perf"
same "a count that overflows" "$tmp/overflow.perf" --samples

# DTrace: the testdata inputs, and one made of many entries, with a
# header, counts too large, empty stacks and a last entry without a count
format=dtrace
for f in "$top"/testdata/stackcollapse-dtrace/*.txt; do
	same "$(basename "$f")" "$f"
	same "$(basename "$f")" "$f" --includeoffset
done
{
	printf 'CPU     ID                    FUNCTION:NAME\n  0  64091   :tick-60s\n\n'
	for i in $(seq 1 300); do
		printf '              libc.so.1`f%d+0x%x\n              prog`main+0x4\n              %d\n\n' \
		    "$((i % 5))" "$i" "$i"
		[ $((i % 41)) = 0 ] && printf '              prog`x\n              99999999999999999999999\n\n'
		[ $((i % 53)) = 0 ] && printf '              7\n\n'
	done
	printf '              prog`last\n'
} >"$tmp/made.dtrace"
same "made" "$tmp/made.dtrace"
same "made" "$tmp/made.dtrace" --strict

# sample: reports in a row (a part begins after a report's end), with
# the damaged reports of testdata among them, reports without a call
# graph first, waiting threads, a total of them that overflows
format=sample
sd=$top/testdata/stackcollapse-sample
for f in "$sd"/*.txt; do
	same "$(basename "$f")" "$f"
done
# half of 2^64 samples of a waiting thread: twice is too many
half() {
	printf 'Call graph:\n    9223372036854775808 Thread_1\n'
	printf '    + 9223372036854775808 mach_msg_trap\nTotal number in stack\n'
}
{
	printf 'Analysis of sampling x (pid 1) every 1 millisecond\n\n'
	printf 'Total number in stack (recursive counted multiple, when >=5):\n\n'
	half
	for i in $(seq 1 40); do
		cat "$sd/differences.txt"
		[ $((i % 7)) = 0 ] && cat "$sd/odd-indentation.txt"
		[ $((i % 11)) = 0 ] && cat "$sd/skipped-indentation.txt"
		[ $((i % 13)) = 0 ] && cat "$sd/no-four-spaces.txt"
	done
	cat "$sd/end-before-call-graph-end.txt"
} >"$tmp/made.sample"
same "made" "$tmp/made.sample"
same "made" "$tmp/made.sample" --no-modules
same "made" "$tmp/made.sample" --strict
{ half; cat "$tmp/made.sample"; half; } >"$tmp/overflow.sample"
same "waiting samples past 2^64-1" "$tmp/overflow.sample"
{
	for i in $(seq 1 30); do
		printf 'Analysis of sampling x (pid 1) every 1 millisecond\n'
		printf 'Total number in stack (recursive counted multiple, when >=5):\n'
	done
	cat "$sd/sample.txt"
} >"$tmp/late.sample"
same "the first call graph in a middle piece" "$tmp/late.sample"
{
	for i in $(seq 1 30); do
		printf 'Analysis of sampling x (pid 1) every 1 millisecond\n'
		printf 'Total number in stack (recursive counted multiple, when >=5):\n'
	done
} >"$tmp/nograph.sample"
same "no call graph at all" "$tmp/nograph.sample"

# bcc: the inputs of testdata (uncompressed), and one made of every
# form in a row: multi-line blocks, bpftrace keys (one without its count
# before the next entry), histograms, folded lines, a tool's WARNING first
# seen in a middle piece, bad lines, counts without a stack; then with
# what has the middle read again: a bpftrace key with an empty line
# inside, a first piece that ends inside a key, counts without a stack
# whose total overflows
format=bcc
bd=$top/testdata/stackcollapse-bcc
for f in "$bd"/*.txt "$bd"/*.txt.gz; do
	n=$(basename "$f" .gz)
	gzip -dcf "$f" >"$tmp/$n"
	same "$n" "$tmp/$n"
	same "$n" "$tmp/$n" --kernel --pid
done
same bpftrace-maps.txt "$tmp/bpftrace-maps.txt" --map stacks
same bpftrace-edge.txt "$tmp/bpftrace-edge.txt" --map @bytes
{
	printf 'Attaching 3 probes...\n\n'
	for i in $(seq 1 60); do
		printf '    f%d\n    main\n    -                app (%d)\n        %d\n\n' \
		    "$((i % 4))" "$i" "$i"
		[ $((i % 11)) = 0 ] && printf '@stacks[\n    cut\n'
		printf '@stacks[\n    g%d\n    main\n]: %d\n' "$((i % 3))" "$i"
		printf '@@odd[\n    o%d\n]: %d\n' "$((i % 2))" "$i"
		printf 'app;h%d;main %d\n' "$((i % 5))" "$i"
		[ $((i % 9)) = 0 ] && printf '@hist[app]:\n[1K, 2K)   3 |@@@@|\n[0]  1 |@|\n'
		[ $((i % 13)) = 0 ] && printf 'a line of nothing\n'
		[ $((i % 17)) = 0 ] && printf '        3\n\n'
		[ "$i" = 30 ] && printf 'WARNING: 5 stack traces lost\n'
		[ "$i" = 40 ] && printf 'WARNING: 7 stack traces lost\n'
	done
	printf '    last\n    main\n'
} >"$tmp/made.bcc"
same "made" "$tmp/made.bcc"
same "made" "$tmp/made.bcc" --map stacks --kernel
same "made" "$tmp/made.bcc" --strict
same "made" "$tmp/made.bcc" --map @@odd
{
	cat "$tmp/made.bcc"
	printf '@stacks[\n    k\n\n    main\n]: 2\n'
	cat "$tmp/made.bcc"
} >"$tmp/blank.bcc"
same "made, a key with an empty line" "$tmp/blank.bcc"
{
	printf '@stacks[\n    f\n    main\n'
	cat "$tmp/made.bcc"
} >"$tmp/open.bcc"
same "made, the first piece ends in a key" "$tmp/open.bcc"
{
	printf '@lat[app]:\n[1K, 2K)   3 |@@@@|\n[2K, 4K)   1 |@|\n[4K, 8K)   1 |@|\n'
	printf '@stacks[\n    g\n]: 1\n'
	cat "$tmp/made.bcc"
	printf '\n    tail\n    main\n'
} >"$tmp/hist.bcc"
same "made, the first piece ends in a histogram" "$tmp/hist.bcc"
{
	printf '        9223372036854775808\n\n'
	cat "$tmp/made.bcc"
	printf '\n        9223372036854775808\n\n'
	cat "$tmp/made.bcc"
} >"$tmp/overflow.bcc"
same "made, counts without a stack past 2^64-1" "$tmp/overflow.bcc"

# jfr: the jfr print text of testdata (uncompressed) with the options
# that name frames and pick events, the recordings (read whole, as
# binary data), and a made one: event types first seen in middle pieces,
# braces and lines outside events, weights of another unit last in a
# middle piece, stacks cut short ("...") and the one deeper than jfr
# print's default and events without a stack in middle pieces only, none
# in the first and last pieces; a recording ending in braces; then with
# the damaged events of bad.txt, whose warnings name the line an event
# began on (the middle is read again)
format=jfr
jd=$top/testdata/stackcollapse-jfr
for f in "$jd"/*.txt "$jd"/*.txt.gz "$jd"/binary/*.txt.gz; do
	n=$(basename "$f" .gz)
	gzip -dcf "$f" >"$tmp/$n"
	same "$n" "$tmp/$n"
	same "$n" "$tmp/$n" --threads --lines --signatures
done
same alloc.txt "$tmp/alloc.txt" --event ObjectAllocationSample
same lock.txt "$tmp/lock.txt" --event JavaMonitorEnter --threads
same units.txt "$tmp/units.txt" --event ThreadPark
for f in "$jd"/binary/*.jfr; do
	same "$(basename "$f")" "$f"
done
# ev TYPE FIELD VALUE FRAME...: one event
ev() {
	local t=$1 k=$2 v=$3 f
	shift 3
	printf '%s {\n  startTime = 10:00:00.000\n  %s = %s\n' "$t" "$k" "$v"
	printf '  sampledThread = "main" (javaThreadId = 1)\n  stackTrace = [\n'
	for f in "$@"; do printf '    %s\n' "$f"; done
	printf '  ]\n}\n\n'
}
{
	for i in $(seq 1 80); do
		ev jdk.ExecutionSample state STATE_RUNNABLE "demo.F$((i % 6)).f() line: $i" \
		    "demo.Main.main(String[]) line: 1"
		ev jdk.ThreadPark duration "$i ms" "demo.P.park()" "java.lang.Thread.run()"
		[ $((i % 7)) = 0 ] && printf '}\n    stray\nnot jfr print\n'
		[ "$i" -gt 40 ] && ev jdk.ObjectAllocationSample weight "$i kB" "demo.A.alloc()"
		[ "$i" -gt 60 ] && ev jdk.ExecutionSample state STATE_RUNNABLE a b c d e
		[ "$i" -gt 20 ] && [ $((i % 5)) = 0 ] && ev jdk.ExecutionSample state X "demo.Cut.f()" "..."
		[ "$i" = 50 ] && ev vendor.Late payload 1 "demo.Late.f()"
		[ "$i" = 30 ] && ev jdk.ExecutionSample state X a b c d e f g
		[ $((i % 9)) = 0 ] && ev jdk.ExecutionSample state X
	done
	ev jdk.ThreadPark duration "1 s" "demo.P.last()"
} >"$tmp/made.jfr"
same "made" "$tmp/made.jfr"
same "made" "$tmp/made.jfr" --threads
same "made" "$tmp/made.jfr" --event ThreadPark
same "made" "$tmp/made.jfr" --event ObjectAllocationSample
same "made" "$tmp/made.jfr" --event ThreadPark --weight startTime
same "made" "$tmp/made.jfr" --event vendor.Late
same "made" "$tmp/made.jfr" --event Nothing
same "made" "$tmp/made.jfr" --strict
{
	cat "$tmp/made.jfr" "$jd/bad.txt" "$tmp/made.jfr"
} >"$tmp/bad.jfr"
same "made, with damaged events" "$tmp/bad.jfr"
{
	printf '\n}\n'
	cat "$tmp/made.jfr"
	printf '}\nnot jfr print\n'
} >"$tmp/middle.jfr"
same "made, events in the middle pieces only" "$tmp/middle.jfr" --event Nothing
{
	cat "$jd/binary/cpu.jfr"
	for i in $(seq 1 20); do printf '\n}\n'; done
} >"$tmp/binary.jfr"
same "a recording, then lines of braces" "$tmp/binary.jfr"
{
	for i in $(seq 1 30); do
		ev jdk.ThreadPark duration "$i ms" "demo.P.park()"
	done
	for i in $(seq 1 30); do
		ev jdk.ThreadPark duration "$i" "demo.P.count()"
	done
	ev jdk.ThreadPark state none "demo.P.last()"
} >"$tmp/units.jfr"
same "the unit of the last weight, in a middle piece" "$tmp/units.jfr" \
    --event ThreadPark

# Many inputs at once: TOOL -j1 against -j2 and -j7, each input read
# whole on a thread of its own where its format allows (pprof), through
# the format's tool, stackcollapse --format and stackcollapse telling
# each input's format.
# many NAME TOOLS ARGS... -- FILES...: agree, in pieces of the default
# size (a file of pprof is read whole).
many() {
	local name=$1 list=$2 args=()
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	agree "many: $name ${args[*]}" "$list" 0 "${args[@]}" "$@"
}
pp=$top/testdata/pprof2folded
tools="pprof2folded,stackcollapse --format pprof,stackcollapse"
cd "$pp" || exit 1
# every pprof input of testdata, good and bad, in one run and as a fleet
# (the list over and over, a failure among the rest)
all=(*.pb.gz *.pb bad/*.pb bad/*.pb.gz)
fleet=()
for i in $(seq 1 6); do fleet+=(cpu.pb.gz labels.pb.gz cpu.pb); done
fleet+=(bad/trunc.pb heap.pb.gz)
for i in $(seq 1 6); do fleet+=(cpu.pb.gz labels.pb.gz); done
for set in all fleet; do
	eval "files=(\"\${$set[@]}\")"
	many "$set" "$tools" -- "${files[@]}"
	many "$set" "$tools" --sample-index 0 -- "${files[@]}"
	many "$set" "$tools" --sample-index alloc_space -- "${files[@]}"
	many "$set" "$tools" --lines --filenames -- "${files[@]}"
	many "$set" "$tools" --tag-root thread --tag-leaf span \
	    --tag-focus 'thread=.' -- "${files[@]}"
	many "$set" "$tools" --list -- "${files[@]}"
	many "$set" "$tools" --differential -- "${files[@]}"
	many "$set" "$tools" --max-size 2000 -- "${files[@]}"
done
many "deltas" "$tools" -- delta-a.pb.gz cpu.pb.gz delta-b.pb.gz delta.pb.gz \
    delta-base.pb.gz cpu.pb.gz
many "deltas" "$tools" --differential -- delta-a.pb.gz delta-b.pb.gz \
    delta.pb.gz cpu.pb.gz
# the same sample types, another default one: the first profile's is
# the run's (a worker, reading a profile as the first, chose otherwise)
many "default types that differ" "$tools" -- bad/deftype-bytes.pb \
    bad/deftype-count.pb cpu.pb bad/deftype-bytes.pb bad/deftype-count.pb
many "default types that differ" "$tools" -- bad/deftype-count.pb \
    bad/deftype-bytes.pb bad/deftype-count.pb
# the first profile without the type asked for: the next is the first
many "first without the type" "$tools" --sample-index alloc_space -- \
    cpu.pb.gz heap.pb.gz cpu.pb.gz heap.pb.gz
many "a fleet of one run" "$tools" --files-from "$pp/files-from.list0" \
    -0 --
# counts that overflow only once added up
printf 'a;b 9223372036854775807\nc 1\n' | folded2pprof >"$tmp/big.pb.gz"
printf 'c 5\n' | folded2pprof >"$tmp/c.pb.gz"
many "sums past 2^64-1" "$tools" -- "$tmp/c.pb.gz" "$tmp/big.pb.gz" \
    "$tmp/c.pb.gz" "$tmp/big.pb.gz" "$tmp/big.pb.gz" "$tmp/c.pb.gz"
# stacks that pass --max-size only once added up (the first profiles
# read, the next fail: the run's reader reads them itself)
many=()
for k in $(seq 0 9); do
	awk -v k="$k" 'BEGIN { for (i = 1; i <= 600; i++)
	    print "main;f" k ";g" i, i }' | folded2pprof >"$tmp/many$k.pb.gz"
	many+=("$tmp/many$k.pb.gz")
done
many "stacks past --max-size" "$tools" --max-size 140000 -- "${many[@]}"
many "stacks past --max-size" "$tools" --max-size 160000 -- "${many[@]}"
# other formats among them, empty inputs, a file that is not there
gzip -dc "$top/testdata/stackcollapse-perf/captures/go.perf.gz" \
    >"$tmp/one.perf"
: >"$tmp/empty"
many "mixed" "stackcollapse" -- cpu.pb.gz "$tmp/one.perf" "$tmp/empty" \
    labels.pb.gz "$tmp/nothere" "$tmp/one.perf" heap.pb.gz cpu.pb
many "empty only" "$tools" -- "$tmp/empty" "$tmp/empty" "$tmp/empty"
many "strict" "$tools" --strict -- cpu.pb.gz delta.pb.gz cpu.pb.gz \
    bad/negative.pb cpu.pb.gz

# Many inputs of a line format at once: each read whole on a thread by a
# reader of its own, taken in order by the run's (format.h's whole); or
# read by the run's reader itself when that one decided otherwise (an
# event chosen from a file before), when the sums might overflow, when
# a warning stops the run, or when the input cannot be read again.
cap=$top/testdata/stackcollapse-perf/captures
mkdir -p "$tmp/perf"
for f in "$cap"/*.perf.gz; do
	b=$(basename "$f" .gz)
	cp "$f" "$tmp/perf/$b.gz"
	gzip -dc "$f" >"$tmp/perf/$b"
done
cd "$tmp/perf" || exit 1
tools="stackcollapse-perf,stackcollapse --format perf,stackcollapse"
# of events that differ: the first file's is kept, a unit that differs
# stops the run
many "perf captures" "$tools" -- ./*.perf ./*.perf.gz
for opts in "--unit samples" "--unit samples --event-filter cycles" \
    "--unit samples --pid --kernel" "--unit samples --tid --all" \
    "--unit samples --srcline" "--list-events" "--unit samples --strict"; do
	# shellcheck disable=SC2086
	many "perf captures" "$tools" $opts -- ./*.perf ./*.perf.gz
done
fleet=()
for i in 1 2 3; do
	fleet+=(go.perf cpp-default.perf.gz java-jit.perf inline.perf)
done
many "perf fleet, one event" "$tools" -- "${fleet[@]}"
printf '%s\n' "${fleet[@]}" >fleet.list
many "perf fleet, one event" "$tools" --files-from fleet.list --
# another event first, then the fleet's: the first file's is kept
many "perf fleet after another event" "$tools" --unit samples -- \
    two-events.perf "${fleet[@]}" tracepoint.perf.gz "${fleet[@]}"
# made: bad lines in several files (more than the warnings shown), a
# last sample cut short, a sample without an event, a count whose sum
# passes 2^64-1 only across files, a file not there, an empty one, a
# pipe (read once: by the run's reader)
made_perf() { # n bad
	awk -v n="$1" -v bad="$2" 'BEGIN {
		for (i = 1; i <= n; i++) {
			printf "prog %d [000] 1.%06d: 1 cpu-clock:ppp: \n", i, i
			printf "\t%x f%d (/bin/prog)\n", i, i % 5
			printf "\t1 main (/bin/prog)\n\n"
			if (bad && i % 7 == 0) print "this is no perf line"
		}
	}'
}
made_perf 30 1 >bad1.perf
made_perf 40 1 >bad2.perf
made_perf 20 0 >good.perf
{ made_perf 10 0; printf 'prog 1 [000] 2.0: 1 cpu-clock:ppp: \n'
  printf '\t1 main (/bin/prog)\n'; } >cut.perf
printf 'prog 1 [000] 1.0: \n\t1 main (/bin/prog)\n\n' >noevent.perf
printf 'prog 1 [000] 1.0: 18446744073709551615 cycles: \n' >big.perf
printf '\t1 main (/bin/prog)\n\n' >>big.perf
: >empty.perf
made=(good.perf bad1.perf cut.perf good.perf bad2.perf noevent.perf
    bad1.perf good.perf nothere.perf empty.perf cut.perf good.perf)
many "perf made" "$tools" -- "${made[@]}"
many "perf made" "$tools" --strict -- "${made[@]}"
# (a bad line stops the run before a last sample cut short is said)
cat bad1.perf cut.perf >badcut.perf
many "perf made" "$tools" --strict -- good.perf good.perf cut.perf \
    badcut.perf good.perf
many "perf made, sums past 2^64-1" "$tools" -- noevent.perf big.perf \
    good.perf big.perf good.perf
many "perf made, sums past 2^64-1" "$tools" --period -- big.perf good.perf \
    big.perf
# standard input, a pipe, among them: of another event, which the run's
# reader reads itself (the pipe's reader kept it, and it cannot be read
# again)
sed 's/cpu-clock:ppp/cycles/' bad1.perf >cycles.perf
printf '#!/bin/sh\ncat cycles.perf | stackcollapse-perf "$@"\n' >piped
chmod +x piped
many "perf made, a pipe among them" ./piped -- good.perf bad2.perf - \
    cycles.perf bad2.perf good.perf

# dtrace, sample, bcc and jfr: every input of testdata in one run, and a
# fleet
for fmt in dtrace sample bcc jfr; do
	d=$top/testdata/stackcollapse-$fmt
	tools="stackcollapse-$fmt,stackcollapse --format $fmt,stackcollapse"
	cd "$d" || exit 1
	all=()
	for f in *.txt *.txt.gz binary/*.jfr; do
		[ -e "$f" ] && all+=("$f")
	done
	many "$fmt inputs" "$tools" -- "${all[@]}"
	many "$fmt inputs" "$tools" --strict -- "${all[@]}"
	many "$fmt fleet" "$tools" -- "${all[@]}" "${all[@]}" "${all[@]}"
done
# stacks cut short, said for each input at the end
cd "$top/testdata/stackcollapse-jfr" || exit 1
many "jfr cut stacks" "stackcollapse-jfr,stackcollapse" -- cpu-most.txt \
    cpu.txt.gz cpu-few.txt cpu-most.txt binary/cpu.jfr cpu-deep.txt.gz
cd "$tmp" || exit 1

# Folded stacks, read in parts by every tool that reads them.
format=folded
tools="flamegraph-svg,foldtop,foldfilter --min-count 0,folded2speedscope"
tools="$tools,foldcost --by function,folded2pprof"
tools="$tools,stackcollapse --format folded,stackcollapse"
for f in "$top"/testdata/flamegraph-svg/*.folded \
    "$top"/testdata/foldcost/*.folded; do
	same "$(basename "$f")" "$f"
done
same "hostile.folded" "$top/testdata/flamegraph-svg/hostile.folded" --strict
# made inputs: STACK N lines with a bad line, a comment, CRLF now and then
made() { # lines first
	awk -v n="$1" -v first="$2" 'BEGIN {
		for (i = 0; i < first; i++) print "# a comment"
		for (i = 1; i <= n; i++) {
			printf "main;f%d;g%d %d%s\n", i % 13, i % 7, i,
			    (i % 11 == 0 ? "\r" : "")
			if (i % 97 == 0) print "no count here"
		}
	}'
}
made 500 0 >"$tmp/m.folded"
same "made" "$tmp/m.folded"
same "made" "$tmp/m.folded" --strict
made 500 400 >"$tmp/m.folded"
same "a first piece without a stack" "$tmp/m.folded"
{ echo "# unit=bytes 0"; made 300 0; } >"$tmp/m.folded"
same "a unit line first" "$tmp/m.folded"
{ made 200 0; echo "# unit=bytes 0"; made 200 0; echo "# unit=ms 0"; } \
    >"$tmp/m.folded"
same "unit lines among the stacks" "$tmp/m.folded"
# tables large enough for their lines to be put together on threads,
# the unit line first, among them, last
wide() { # N stacks whose text begins with P
	awk -v n="$1" -v p="$2" 'BEGIN {
		for (i = 1; i <= n; i++)
			printf "%sroot;a%d;b%d;c%d %d\n", p, i % 101, i % 37, i, i
	}'
}
{ echo "# unit=bytes 0"; wide 12000 '$'; } >"$tmp/w.folded"
same "a wide table, its unit line first" "$tmp/w.folded"
{ echo "# unit=bytes 0"; wide 6000 '$'; wide 6000 '!'; } >"$tmp/w.folded"
same "a wide table, its unit line among its stacks" "$tmp/w.folded"
{ echo "# unit=bytes 0"; wide 12000 '!'; } >"$tmp/w.folded"
same "a wide table, its unit line last" "$tmp/w.folded"
{ echo "# unit=samples 0"; made 100 0; echo "# unit=samples 0"; made 100 0; } \
    >"$tmp/m.folded"
same "a second unit line, the same" "$tmp/m.folded"
{ made 200 0; echo "main;f1;g1 0.25"; made 200 0; echo "main;x 0.5"; } \
    >"$tmp/m.folded"
same "fractions among the stacks" "$tmp/m.folded"
{ echo "main;f1;g1 0.25"; made 300 0; } >"$tmp/m.folded"
same "a fraction first" "$tmp/m.folded"
# (0.1 + 0.2) + 0.3 is not 0.1 + (0.2 + 0.3) in binary floating point
{ echo "main;x 0.1"; made 100 0; echo "main;x 0.2"; echo "main;x 0.3"
  made 100 0; } >"$tmp/m.folded"
same "fractions whose sum depends on their order" "$tmp/m.folded"
{ made 0 50; made 100 0; made 0 50; } >"$tmp/m.folded"
same "no stack in the first piece nor the last" "$tmp/m.folded"
# its unit is samples all the same: not that of a file read before it
printf '# unit=bytes 0\nmain;y 5\n' >"$tmp/bytes.folded"
same "no stack in the first piece nor the last, after bytes" \
    "$tmp/m.folded" "$tmp/bytes.folded"
{ made 200 0; echo "main;f1;g1 3 4"; made 200 0; } >"$tmp/m.folded"
same "two counts among the stacks" "$tmp/m.folded"
{ made 100 0; echo "main;big 18446744073709551615"; made 200 0
  echo "main;big 1"; made 100 0; } >"$tmp/m.folded"
same "a sum past 2^64-1" "$tmp/m.folded"
# the first piece (64 bytes at least) ends with the stack whose sum with
# a middle piece's overflows: read before the middle is
{ echo "main;pad;pad;pad;pad;pad;pad;pad;pad 1"
  echo "main;big 18446744073709551615"; made 200 0; echo "main;big 1"
  made 100 0; } >"$tmp/m.folded"
same "the first piece's last stack, past 2^64-1 with the middle" \
    "$tmp/m.folded"

# a fraction read before a perf file read in parts: the parts' integer
# sums added to it at once round otherwise than the samples one by one
printf 'prog;main;f1 0.5\n' >"$tmp/half.folded"
for p in 12690322454561442 20443807682392889 9811436307267292 \
    32409561331900089; do
	printf 'prog 1 [000] 1.000001: %s cpu-clock:ppp: \n' "$p"
	printf '\t1 f1 (/bin/prog)\n\t1 main (/bin/prog)\n\n'
done >"$tmp/big-periods.perf"
agree "a fraction before an input read in parts" "stackcollapse" "60 120" \
    --unit samples "$tmp/half.folded" "$tmp/big-periods.perf"

# folddiff: each profile into its column of one table
tools="folddiff,folddiff -n,folddiff --report --top 5,folddiff -s"
made 500 0 >"$tmp/before.folded"
{ made 300 20; echo "main;x 0.1"; made 200 0; } >"$tmp/after.folded"
same "folddiff" "$tmp/after.folded" "$tmp/before.folded"
same "folddiff, the same file" "$tmp/before.folded" "$tmp/before.folded"

# 20,000 stacks: from 8,192 the output's sort and the call tree's run on
# the threads too, the tree's subtrees of the root's children apart (one
# child of three quarters of the stacks, twelve small ones)
wide() { # seed
	awk -v s="$1" 'BEGIN { for (i = 1; i <= 20000; i++)
		printf "%s;a%d;b%d;c%d %d\n", (i % 4 ? "main" : "t" i % 12),
		    (i * s) % 97, i % 89, (i * 7919) % 20011, i % 5 + 1 }'
}
wide 1 >"$tmp/wide1.folded"
wide 3 >"$tmp/wide3.folded"
tools="flamegraph-svg,flamegraph-svg --minwidth 0,foldfilter --min-count 0"
tools="$tools,folded2pprof,folded2speedscope"
agree "folded: 20,000 stacks" "$tools,stackcollapse" "0 4096" \
    "$tmp/wide1.folded"
agree "folddiff: 20,000 stacks" "folddiff,folddiff -n" "0 4096" \
    "$tmp/wide1.folded" "$tmp/wide3.folded"
# every frame drawn: the frames drawn on the threads, in tasks written in
# order; the palettes and a differential profile's colours made there too
folddiff "$tmp/wide1.folded" "$tmp/wide3.folded" >"$tmp/wide.diff"
for opts in "" "--hash --colors java" "--inverted --title T"; do
	# shellcheck disable=SC2086
	agree "flamegraph-svg: 20,000 stacks, every frame drawn${opts:+ ($opts)}" \
	    "flamegraph-svg --minwidth 0 $opts" "0 4096" "$tmp/wide1.folded"
done
agree "flamegraph-svg: 20,000 stacks of two columns, every frame drawn" \
    "flamegraph-svg --minwidth 0" "0 4096" "$tmp/wide.diff"

# foldmerge: unsorted files read in pieces on the threads, each line sent
# to the table of its stack's share, the tables merged as streams; or by
# one thread when that could differ (an overflow, a unit line after the
# first piece). Bad lines in many pieces (more than are shown), CR LF
# ends, blank lines, a last line without its newline, fractions (summed
# in the order of the lines, and totalled for --normalize in the order of
# the stacks), a UTF-16 file and a gzip one (read by one thread), a
# sorted file among them. Pieces of 64 bytes hold a line or two: a piece
# is a range of bytes, not of lines, and pieces of one byte would be one
# a byte, a round of threads started for every few.
unsorted() { # seed lines
	awk -v s="$1" -v n="$2" 'BEGIN { print "# unit=nanoseconds 0"
		for (i = 1; i <= n; i++) {
			printf "main;f%d;g%d %d%s\n", (i * s) % 53, i % 7,
			    i % 4 + 1, (i % 11 ? "" : "\r")
			if (i % 37 == 0) print "a bad line"
			if (i % 41 == 0) print ""
		}
		printf "main;last%d 1", s }'
}
unsorted 7 400 >"$tmp/un1.folded"
unsorted 13 300 >"$tmp/un2.folded"
unsorted 3 200 | iconv -f UTF-8 -t UTF-16 >"$tmp/utf16.folded"
unsorted 5 300 | gzip >"$tmp/un3.folded.gz"
unsorted 9 50 | LC_ALL=C sort >"$tmp/sorted.folded"
{ unsorted 11 200; printf '\n# unit=cycles 0\nmain;x 1\n'; } \
    >"$tmp/unitlater.folded"
{ unsorted 17 100; printf '\nmain;z 18446744073709551615\n'; } \
    >"$tmp/over.folded"
# (the 0.6s count only when summed before they meet 1e16)
{ printf 'main;big 10000000000000000\n'; unsorted 19 100
  printf '\n'; for i in 1 2 3 4 5; do printf 'main;big 0.6\n'; done
} >"$tmp/frac.folded"
un=("$tmp/un1.folded" "$tmp/un2.folded" "$tmp/sorted.folded")
agree "foldmerge: an unsorted file" foldmerge "64 4096" "$tmp/un1.folded"
agree "foldmerge: unsorted files" foldmerge "64 4096" "${un[@]}"
agree "foldmerge: unsorted files, UTF-16, gzip" foldmerge "64 4096" \
    "${un[@]}" "$tmp/utf16.folded" "$tmp/un3.folded.gz"
agree "foldmerge: unsorted files" foldmerge "64 4096" --strict "${un[@]}"
agree "foldmerge: unsorted files" foldmerge "64 4096" --normalize 1000 \
    --root r1 "${un[@]}" --root r2 "$tmp/un1.folded"
for f in unitlater over frac; do
	agree "foldmerge: an unsorted file, $f" foldmerge "64 4096" \
	    "$tmp/$f.folded"
	agree "foldmerge: unsorted files, $f" foldmerge "64 4096" \
	    "$tmp/$f.folded" "${un[@]}" "$tmp/$f.folded"
done
agree "foldmerge: unsorted files, frac" foldmerge "64 4096" --normalize 7 \
    "$tmp/frac.folded" "${un[@]}" "$tmp/frac.folded"
# (the 0.3s before 1e16 count in the total, those after it do not)
awk 'BEGIN { for (i = 199; i >= 0; i--)
	printf "s%03d %s\n", i, (i == 100 ? "10000000000000000" : "0.3") }' \
    >"$tmp/frac2.folded"
agree "foldmerge: an unsorted file, frac2" foldmerge "64 4096" --normalize 7 \
    "$tmp/frac2.folded"

# the bench capture, large enough to be read in parts by default
big=$top/bench/perf-big.txt.gz
if [ -r "$big" ] && ! sanitized; then
	gzip -dc "$big" >"$tmp/big.perf"
	run "$tmp/want" "$tmp/wanterr" stackcollapse-perf -j1 "$tmp/big.perf"
	run "$tmp/got" "$tmp/goterr" stackcollapse-perf "$tmp/big.perf"
	compare "bench capture, default jobs" "$tmp/want" "$tmp/got"
	run "$tmp/got" "$tmp/goterr" stackcollapse-perf -j3 "$tmp/big.perf"
	compare "bench capture, -j3" "$tmp/want" "$tmp/got"
	run "$tmp/got" "$tmp/goterr" stackcollapse -j2 <"$tmp/big.perf"
	compare "bench capture, -j2, standard input" "$tmp/want" "$tmp/got"
	# the default is one thread per processor the run may use: under
	# taskset to one processor, none is started (the clones counted).
	# FOLD_TEST_ROOT: a tree made here stands for / where the cgroups
	# are read (/proc/self, /sys/fs/cgroup), so that the limits of the
	# cgroups the tests run in decide nothing.
	if have strace && have taskset; then
		# clones CPUS CMD...: CMD run on CPUS, its output in got;
		# prints how many threads it started
		clones() {
			local cpus=$1
			shift
			taskset -c "$cpus" strace -f -qq -e trace=clone,clone3 \
			    -o "$tmp/clones" "$@" >"$tmp/got" 2>"$tmp/goterr"
			grep -c clone "$tmp/clones"
		}
		two=$([ "$(nproc)" -ge 2 ] && echo 1 || echo 0)
		r=$tmp/root
		mkdir -p "$r/sys/fs/cgroup"
		export FOLD_TEST_ROOT=$r
		equal "bench capture, one processor allowed: no thread" \
		    "$(clones 0 stackcollapse-perf "$tmp/big.perf")" 0
		compare "bench capture, one processor allowed" "$tmp/want" \
		    <(cat "$tmp/got"; echo "rc 0")
		n=$(clones 0,1 stackcollapse-perf "$tmp/big.perf")
		if [ "$two" = 1 ]; then
			check "bench capture, two processors allowed: threads" \
			    test "$n" -gt 0
		fi
		# and no more than the CPU limits of its cgroups give: those
		# where /proc/self/mountinfo mounts each hierarchy, of the
		# process's cgroup in /proc/self/cgroup and those above it.
		# limit WHAT WANT: the capture under the tree made in $r,
		# WANT 0 for no thread, 1 for threads
		limit() {
			n=$(clones 0,1 stackcollapse-perf "$tmp/big.perf")
			if [ "$two" = 0 ]; then
				:
			elif [ "$2" = 0 ]; then
				equal "$1: no thread" "$n" 0
			else
				check "$1: threads" test "$n" -gt 0
			fi
			compare "$1: the output" "$tmp/want" \
			    <(cat "$tmp/got"; echo "rc 0")
		}
		# mnt ROOT POINT TYPE OPTIONS: a line of mountinfo
		mnt() { echo "30 25 0:26 $1 $2 rw shared:4 - $3 $3 $4"; }
		mkdir -p "$r/proc/self"
		# cgroup v2 in a container: its own cgroup at /sys/fs/cgroup
		echo "0::/" >"$r/proc/self/cgroup"
		mnt / /sys/fs/cgroup cgroup2 rw >"$r/proc/self/mountinfo"
		for q in "100000 100000:0" "150000 100000:1" "max 100000:1"; do
			echo "${q%:*}" >"$r/sys/fs/cgroup/cpu.max"
			limit "cpu.max ${q%:*}" "${q#*:}"
		done
		# a limit on a cgroup above the process's (a systemd slice)
		mkdir -p "$r/sys/fs/cgroup/a.slice/b.service"
		echo "0::/a.slice/b.service" >"$r/proc/self/cgroup"
		echo "max 100000" >"$r/sys/fs/cgroup/a.slice/b.service/cpu.max"
		echo "50000 100000" >"$r/sys/fs/cgroup/a.slice/cpu.max"
		limit "cpu.max of the cgroup above" 0
		echo "200000 100000" >"$r/sys/fs/cgroup/a.slice/cpu.max"
		limit "cpu.max of 2 above" 1
		# cgroup v1: the cpu controller's quota over its period, in a
		# mount whose root is the container's cgroup, at a mount
		# point of an escaped space
		printf '%s\n' "5:memory:/docker/c1" "4:cpu,cpuacct:/docker/c1" \
		    "0::/" >"$r/proc/self/cgroup"
		{
			mnt / /sys/fs/cgroup/memory cgroup rw,memory
			mnt /docker/c1 '/sys/fs/cgroup/cpu\040v1' cgroup \
			    rw,cpu,cpuacct
			mnt / /sys/fs/cgroup/unified cgroup2 rw
		} >"$r/proc/self/mountinfo"
		v1=$r/sys/fs/cgroup/cpu\ v1
		mkdir -p "$v1"
		echo 100000 >"$v1/cpu.cfs_period_us"
		for q in "100000:0" "150000:1" "-1:1"; do
			echo "${q%:*}" >"$v1/cpu.cfs_quota_us"
			limit "v1 cpu.cfs_quota_us ${q%:*}" "${q#*:}"
		done
		# counted only where threads would start: a small input
		# never has the cgroups read, nor the processors asked for
		gzip -dc "$caps/go.perf.gz" >"$tmp/small.perf"
		strace -f -qq -e trace=openat,sched_getaffinity -o "$tmp/calls" \
		    stackcollapse-perf "$tmp/small.perf" >/dev/null 2>&1
		equal "a small input: processors not counted" \
		    "$(grep -c 'cgroup\|mountinfo\|sched_getaffinity' \
		    "$tmp/calls")" 0
		rm -r "$r/proc" "$r/sys/fs/cgroup"
		mkdir -p "$r/sys/fs/cgroup"
		# inputs by default: read on one thread until those read
		# come to 8 MiB, the rest on threads; below, on one
		awk -v RS= -v ORS='\n\n' 'NR <= 3000' "$tmp/big.perf" \
		    >"$tmp/part.perf"
		for i in 1 2 3; do echo "$tmp/part.perf"; done >"$tmp/few.list"
		for i in $(seq 12); do echo "$tmp/part.perf"; done \
		    >"$tmp/many.list"
		run "$tmp/want" "$tmp/wanterr" stackcollapse-perf -j1 \
		    --files-from "$tmp/few.list"
		equal "3 inputs of 1 MB: no thread" "$(clones 0,1 \
		    stackcollapse-perf --files-from "$tmp/few.list")" 0
		compare "3 inputs of 1 MB, default jobs" "$tmp/want" \
		    <(cat "$tmp/got"; echo "rc 0")
		run "$tmp/want" "$tmp/wanterr" stackcollapse-perf -j1 \
		    --files-from "$tmp/many.list"
		n=$(clones 0,1 stackcollapse-perf --files-from "$tmp/many.list")
		if [ "$two" = 1 ]; then
			check "12 inputs of 1 MB: threads past 8 MiB" \
			    test "$n" -gt 0
		fi
		compare "12 inputs of 1 MB, default jobs" "$tmp/want" \
		    <(cat "$tmp/got"; echo "rc 0")
		# foldmerge by default: threads once its files come to 8 MiB
		stackcollapse-perf -j1 "$tmp/big.perf" >"$tmp/big.folded"
		equal "foldmerge of a 4.8 MB file: no thread" \
		    "$(clones 0,1 foldmerge "$tmp/big.folded")" 0
		n=$(clones 0,1 foldmerge "$tmp/big.folded" "$tmp/big.folded")
		if [ "$two" = 1 ]; then
			check "foldmerge of two: threads" test "$n" -gt 0
		fi
		foldmerge -j1 "$tmp/big.folded" "$tmp/big.folded" >"$tmp/want"
		compare "foldmerge of two, default jobs" "$tmp/want" "$tmp/got"
		unset FOLD_TEST_ROOT
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
