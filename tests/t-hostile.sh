#!/usr/bin/env bash
# Input built to hurt: every tool ends in bounded time and memory with a
# clear error or a correct result. The big inputs (a 10^6-frame stack, a
# 100 MB frame name, 10^7 unique stacks) are made here, never committed,
# and run on the plain build only (SANITIZE unset): under ASan they would
# take minutes. usage: tests/t-hostile.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="hostile: "
cd "$tmp" || exit 2

# expect (lib.sh) leaves a run's output in out, to compare after

# --- pcre2: catastrophic backtracking is cut by the match limit
awk 'BEGIN { for (i = 0; i < 200; i++) {
	s = "main;"; for (j = 0; j < 40; j++) s = s "a"; print s "!" i " 1" } }' \
	>names.folded
expect "foldfilter (a+)+\$ over long names: match limit" 1 \
	"foldfilter: --grep '\(a\+\)\+\\$': matching 'a+!0': match limit exceeded" \
	foldfilter --grep '(a+)+$' names.folded
expect "foldfilter --replace with a catastrophic pattern" 1 "match limit exceeded" \
	foldfilter --replace '(a|a)+$' x names.folded
# the other patterns: foldmerge's on paths, pprof2folded's on labels
long=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
mkdir paths && printf 'main 1\n' >"paths/${long}b"
expect "foldmerge --root-from-path with a catastrophic pattern" 1 \
	"matching 'paths/a+b': match limit exceeded" \
	foldmerge --root-from-path '(a+)+$' "paths/${long}b"
python3 - "$top/bench" "${long}b" <<'PY'
import gzip, random, sys
sys.path.insert(0, sys.argv[1])
sys.dont_write_bytecode = True
import gen_fleet
b = gen_fleet.Base(sys.argv[1] + "/../testdata/pprof2folded/cpu.pb.gz")
with open("label.pb.gz", "wb") as f:
    f.write(gzip.compress(gen_fleet.profile(b, 0, "svc", random.Random(1),
                                            [sys.argv[2]])))
PY
expect "pprof2folded --tag-focus with a catastrophic pattern" 1 \
	"label.pb.gz: tag focus 'endpoint': matching 'a+b': match limit exceeded" \
	pprof2folded --tag-focus 'endpoint=(a+)+$' label.pb.gz

# --- counts at and above 2^64, and sums that pass it
printf 'a 18446744073709551615\nb 1\n' >max.folded
printf 'a 18446744073709551615\na 1\n' >sum.folded
printf 'a 18446744073709551616\nb 2\n' >above.folded
printf 'a 18446744073709551615\nb 18446744073709551615\n' >total.folded
expect "foldmerge: 2^64-1 is a count" 0 "" foldmerge max.folded
printf 'a 18446744073709551615\nb 1\n' >want
compare "foldmerge: 2^64-1 written exactly" want out
for t in foldmerge foldtop foldfilter flamegraph-svg folded2pprof; do
	expect "$t: a sum past 2^64-1 is an error naming file and line" 1 \
		"sum.folded:2: .*overflow" $t sum.folded
	expect "$t: a count of 2^64 is a bad line naming file and line" 0 \
		"above.folded:1: count out of range" $t above.folded
done
expect "foldtop: a total past 2^64-1 is an error" 1 "overflow" foldtop total.folded
expect "folddiff: a sum past 2^64-1 is an error (status 2)" 2 \
	"sum.folded:2: .*overflow" \
	folddiff sum.folded max.folded
expect "folded2pprof: a count above 2^63-1 is an error" 1 "not .*int64|pprof" \
	folded2pprof max.folded

# --- perf script: headers without frames, frames without headers,
# 64 KB event names
printf 'prog 1 [000] 1.0: 1 cycles: \n\nprog 1 [000] 1.1: 1 cycles: \n\n' \
	>noframes.perf
expect "stackcollapse-perf: samples without frames count as the process" 0 "" \
	stackcollapse-perf noframes.perf
printf '# unit=cycles 0\nprog 2\n' >want
compare "stackcollapse-perf: headers without frames: prog 2" want out
printf '\t400000 main (/bin/prog)\n\t400001 start (/bin/prog)\n\n' >noheader.perf
expect "stackcollapse-perf: frames without a header are bad lines, no stack a failure" 1 \
	"noheader.perf:1: " stackcollapse-perf noheader.perf
ev=$(head -c 65536 /dev/zero | tr '\0' e)
{ printf 'prog 1 [000] 1.0: 1 %s: \n\t400000 main (/bin/prog)\n\n' "$ev"
  printf 'prog 1 [000] 1.0: 1 cycles: \n\t400000 main (/bin/prog)\n\n'; } >event.perf
expect "stackcollapse-perf: a 64 KB event name, cut in the message" 0 \
	"kept event e{60}\.\.\. \(1 samples\); dropped cycles" \
	stackcollapse-perf event.perf
expect "stackcollapse-perf --event-filter of a 64 KB event" 0 "" \
	stackcollapse-perf --event-filter "$ev" event.perf
printf 'prog;main 1\n' >want
compare "stackcollapse-perf: the 64 KB event's sample" want out

# --- pprof: tables out of range or pointing at themselves
PYTHONPATH=$top/bench python3 - <<'EOF'
import gzip
from pbwire import varint as v, num as f, msg as m
def prof(samples=(), locs=(), funcs=(), strs=(b'', b'samples', b'count', b'main'),
         maps=()):
    p = m(1, f(1, 1) + f(2, 2))                 # sample_type samples/count
    for s in samples: p += m(2, s)
    for x in maps: p += m(3, x)
    for l in locs: p += m(4, l)
    for fn in funcs: p += m(5, fn)
    for s in strs: p += m(6, s)
    return p
sample = m(1, v(1)) + m(2, v(5))                 # location 1, value 5
loc1 = f(1, 1) + m(4, f(1, 1))                   # id 1, line function 1
fn1 = f(1, 1) + f(2, 3)                          # id 1, name "main"
cases = {
    'ok': prof([sample], [loc1], [fn1]),
    'sample-loc': prof([m(1, v(7)) + m(2, v(5))], [loc1], [fn1]),
    'loc-func': prof([sample], [f(1, 1) + m(4, f(1, 9))], [fn1]),
    'func-name': prof([sample], [loc1], [f(1, 1) + f(2, 99)]),
    'string-huge': prof([sample], [loc1], [f(1, 1) + f(2, 2**63)]),
    'loc-self': prof([m(1, v(1, ) + v(1)) + m(2, v(5))], [loc1, loc1], [fn1]),
    'func-dup': prof([sample], [loc1], [fn1, f(1, 1) + f(2, 1)]),
    'map-missing': prof([sample], [f(1, 1) + f(2, 1) + f(3, 0x1000)], [fn1]),
    'map-self': prof([sample], [f(1, 1) + f(2, 1) + f(3, 0x1000)], [fn1],
                     maps=[f(1, 1) + f(5, 4)]),
    'string0': prof([sample], [loc1], [fn1], strs=(b'x', b'samples', b'count', b'main')),
    'loc-id0': prof([m(1, v(0)) + m(2, v(5))], [f(1, 0) + m(4, f(1, 1))], [fn1]),
    'value-count': prof([m(1, v(1)) + m(2, v(5) + v(6))], [loc1], [fn1]),
    'nested-len': prof([sample], [loc1], [fn1])[:-3] + b'\x32\xff\xff\xff\xff\x0f',
}
for name, p in cases.items():
    with open(name + '.pb', 'wb') as fh:
        fh.write(p)
EOF
expect "pprof2folded: a well-formed hand-made profile" 0 "" pprof2folded ok.pb
printf 'main 5\n' >want
compare "pprof2folded: the hand-made profile's stack" want out
for c in sample-loc loc-func func-name string-huge loc-self func-dup \
    map-missing map-self string0 loc-id0 value-count nested-len; do
	expect "pprof2folded: $c: an error naming the file" 1 "$c.pb: " \
		pprof2folded "$c.pb"
done

# --- gzip bombs: the decompression cap holds for every reader
if ! sanitized; then
	# a bomb that begins as a pprof profile (field 1, a huge length), so
	# that only the cap can stop it; zeros alone are refused at byte 0
	{ printf '\n\377\377\377\177'; head -c 300000000 /dev/zero; } | gzip -1 >bomb.gz
	expect "pprof2folded: a gzip bomb stops at --max-size" 1 \
		"bomb.gz: .*(limit|larger|max)" pprof2folded --max-size 100000000 bomb.gz
	head -c 300000000 /dev/zero | gzip -1 >zeros.gz
	expect "pprof2folded: a gzip bomb of zeros refused at its first byte" 1 \
		"zeros.gz: .*not a pprof profile" pprof2folded zeros.gz
	# folded lines, which most readers take or skip line by line, 1000
	# times compressed: 320 MiB from 20 gzip members of 34 KB
	awk 'BEGIN { s = "main"; for (i = 1; i < 400; i++) s = s ";main"
		for (i = 0; i < 8300; i++) print s " 1" }' | gzip -9 >member.gz
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		cat member.gz
	done >lines.gz
	rm -f member.gz
	for t in foldmerge flamegraph-svg foldfilter foldtop foldcost \
	    stackcollapse stackcollapse-perf stackcollapse-bcc \
	    stackcollapse-dtrace stackcollapse-sample stackcollapse-vtune \
	    stackcollapse-ghcprof stackcollapse-jfr; do
		expect "$t: a gzip bomb is stopped as one" 1 \
			"lines.gz: gzip data expands more than 200 times" $t lines.gz
	done
	expect "folddiff: a gzip bomb is stopped as one" 2 \
		"lines.gz: gzip data expands more than 200 times" \
		folddiff lines.gz lines.gz
	# the formats that reject the first line never decompress the rest
	for t in stackcollapse-vsprof svg2folded stackcollapse-chrome \
	    pprof2folded pprofmerge; do
		expect "$t: a gzip bomb rejected at its first line" 1 "lines.gz" \
			$t lines.gz
	done
	rm -f lines.gz bomb.gz zeros.gz
fi

# --- inputs that change while foldmerge reads them: an error naming the
# file or the whole of what was read, never a signal and never a silently
# partial result. The FIFO after the file is the hook: foldmerge opens it,
# letting its writer go on, only once the file before it has been read
# into memory (unsorted) or scanned, to be read again by the merge
# (sorted). No timing is involved.
awk 'BEGIN { for (i = 200000; i > 0; i--) printf "main;f%07d;g 1\n", i }' \
	>unsorted.folded
sort unsorted.folded >whole.folded
# under_reader FILE CMD...: runs foldmerge FILE fifo, doing CMD once
# foldmerge waits on the FIFO
under_reader() {
	local f=$1 pid
	shift
	rm -f fifo && mkfifo fifo
	timeout 120 foldmerge "$f" fifo >out 2>err &
	pid=$!
	timeout 60 sh -c 'exec 7>fifo && "$@"' sh "$@"
	wait "$pid"
}
cp unsorted.folded u.folded
under_reader u.folded truncate -s 0 u.folded
rc=$?
if [ "$rc" = 0 ] && cmp -s whole.folded out; then
	ok "foldmerge: an unsorted input truncated once read: merged whole"
else
	notok "foldmerge: an unsorted input truncated once read (status $rc)"
fi
cp whole.folded s.folded
under_reader s.folded truncate -s 2000000 s.folded
rc=$?
if [ "$rc" = 1 ] && grep -q '^foldmerge: s.folded: changed while being read$' err
then
	ok "foldmerge: a sorted input truncated before its merge: an error"
else
	notok "foldmerge: a sorted input truncated before its merge (status $rc)"
	excerpt err 3
fi
cp whole.folded s.folded
under_reader s.folded sh -c 'echo "zzz 1" >>s.folded'
rc=$?
if [ "$rc" = 1 ] && grep -q '^foldmerge: s.folded: changed while being read$' err
then
	ok "foldmerge: a sorted input grown before its merge: an error"
else
	notok "foldmerge: a sorted input grown before its merge (status $rc)"
fi
rm -f u.folded s.folded fifo

plain_only "big inputs: plain build only"

# --- big inputs, plain build only

# a stack of 10^6 frames
awk 'BEGIN { printf "f0"; for (i = 1; i < 1000000; i++) printf ";f%d", i % 1000
	print " 5"; print "main;x 3" }' >deep.folded
sort deep.folded >deep.sorted
for t in foldmerge "foldfilter --collapse-recursion" foldtop folddiff; do
	expect "$t: a stack of 10^6 frames" 0 "" $t deep.folded $([ "$t" = folddiff ] && echo deep.folded)
done
expect "foldmerge: the 10^6-frame stack unchanged" 0 "" foldmerge deep.folded
compare "foldmerge: the 10^6-frame stack written back" deep.sorted out
folded2pprof deep.folded >deep.pb.gz
expect "pprof2folded: 10^6 frames back from pprof" 0 "" pprof2folded deep.pb.gz
compare "folded -> pprof -> folded: 10^6 frames" deep.sorted out
# drawn, every frame is a rectangle: 10^5 keep the SVG at 18 MB
head -c 500000 deep.folded | sed 's/;[^;]*$/ 5/' >deep5.folded
timeout 300 flamegraph-svg deep5.folded | xmllint --noout --huge - 2>err
verdict "flamegraph-svg: 10^5 frames, well-formed" $?

# a frame name of 100 MB
{ head -c 100000000 /dev/zero | tr '\0' a; printf ';leaf 7\n'; } >long.folded
expect "foldmerge: a 100 MB frame name" 0 "" foldmerge long.folded
compare "foldmerge: the 100 MB name written back" long.folded out
folded2pprof long.folded >long.pb.gz
expect "pprof2folded: a 100 MB frame name back from pprof" 0 "" pprof2folded long.pb.gz
compare "folded -> pprof -> folded: the 100 MB name" long.folded out
expect "foldfilter --replace on a 100 MB name" 0 "" foldfilter --replace '^a+$' A long.folded
printf 'A;leaf 7\n' >want
compare "foldfilter: the 100 MB name replaced" want out
rm -f long.folded long.pb.gz out

# 10^7 unique stacks
awk 'BEGIN { for (i = 0; i < 10000000; i++) print "main;f" i " 1" }' >many.folded
expect "foldmerge: 10^7 unique stacks" 0 "" foldmerge many.folded
if [ "$(wc -l <out)" -eq 10000000 ] &&
    [ "$(awk '{ n += $NF } END { print n }' out)" -eq 10000000 ]; then
	ok "foldmerge: 10^7 stacks, total 10^7"
else
	notok "foldmerge: 10^7 stacks, total 10^7"
fi
# the same file (unsorted) truncated while foldmerge reads it: which stage
# the truncation meets is down to timing, so each outcome that is not a
# fault passes: the whole result (it came too late), an empty one (too
# early), or an error naming the file
mv out many.out
timeout 300 foldmerge many.folded >out 2>err &
pid=$!
sleep 0.5
: >many.folded
wait "$pid"
rc=$?
if { [ "$rc" = 0 ] && { cmp -s out many.out || [ ! -s out ]; }; } ||
    { [ "$rc" = 1 ] &&
    grep -q '^foldmerge: many.folded: changed while being read$' err; }; then
	ok "foldmerge: an unsorted input truncated while read (status $rc)"
else
	notok "foldmerge: an unsorted input truncated while read (status $rc)"
	excerpt err 3
fi
rm -f many.folded many.out
