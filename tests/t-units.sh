#!/usr/bin/env bash
# The unit line (folded(5)) against the readers that know nothing of it:
# every profile we write with one must read in flamegraph.pl and inferno
# without a line ignored, with the same total, and sorted as inferno
# checks; and the unit must survive what the tools do to a profile.
# usage: tests/t-units.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
t=$top/testdata
need perl

# flamegraph.pl's own parse: its line regex and its count of ignored
# lines; prints "IGNORED TOTAL"
flamegraph_pl() {
	perl -e 'my ($ignored, $time) = (0, 0);
	    foreach (sort <>) { chomp;
		my ($stack, $samples) = (/^(.*)\s+?(\d+(?:\.\d*)?)$/);
		unless (defined $samples and defined $stack) { ++$ignored; next; }
		$time += $samples; }
	    print "$ignored $time\n";' "$1"
}

# inferno's: the count after the last space, the delta before it, a
# line whose stack is empty ignored, and its check that the input is
# sorted frame by frame; prints "IGNORED TOTAL" or "unsorted"
inferno() {
	python3 - "$1" <<'EOF'
import sys
ign = tot = 0
last = None
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    line = line.strip()
    i = line.rfind(" ")
    if i < 0 or not line[i + 1:].replace(".", "", 1).isdigit():
        ign += 1
        continue
    n, line = int(float(line[i + 1:])), line[:i].rstrip()
    j = line.rfind(" ")
    if j >= 0 and line[j + 1:].replace(".", "", 1).isdigit():
        line = line[:j].rstrip()
    if not line:
        ign += 1
        continue
    stack = line.split(";")
    if last is not None and last > stack:
        print("unsorted")
        sys.exit()
    last = stack
    tot += n
print(ign, tot)
EOF
}

p=$t/pprof2folded
pprof2folded $p/cpu.pb.gz >"$tmp/cpu.folded"
pprof2folded $p/mutex.pb.gz >"$tmp/mutex.folded"
printf '!early;x 5\n# unit=nanoseconds 0\nmain;a 7\n' >"$tmp/early.folded"
for c in "pprof2folded $p/cpu.pb.gz" "pprof2folded $p/heap.pb.gz" \
    "pprof2folded $p/goroutine.pb.gz" \
    "stackcollapse-chrome --time $t/stackcollapse-chrome/cpu.cpuprofile" \
    "stackcollapse-jfr --event jdk.JavaMonitorEnter $t/stackcollapse-jfr/lock-deep.txt.gz" \
    "folddiff $tmp/cpu.folded $tmp/mutex.folded" \
    "foldmerge $tmp/cpu.folded $tmp/mutex.folded" \
    "foldfilter --exclude main.mix $tmp/cpu.folded" \
    "stackcollapse $tmp/early.folded"; do
	$c >"$tmp/out" 2>/dev/null
	n=${c%% *}
	check "$n: its output has a unit line" grep -q '^# unit=' "$tmp/out"
	want="0 $(total "$tmp/out")"
	equal "$c: flamegraph.pl ignores no line, same total" \
	    "$(flamegraph_pl "$tmp/out")" "$want"
	equal "$c: inferno ignores no line, same total, sorted" \
	    "$(inferno "$tmp/out")" "$want"
done

# the line goes where its text sorts, after "!early"
stackcollapse "$tmp/early.folded" >"$tmp/out"
equal "the unit line sorts among the stacks" "$(sed -n 2p "$tmp/out")" \
    "# unit=nanoseconds 0"

# a bad unit line is a bad line; a second unit, too
printf '# unit=a b 0\nmain 1\n' | foldfilter >"$tmp/out" 2>"$tmp/err"
check "a unit line with a bad name is a bad line" grep -q 'not a unit name' \
    "$tmp/err"
printf '# unit=bytes 0\n# unit=nanoseconds 0\nmain 1\n' |
	foldfilter >"$tmp/out" 2>"$tmp/err"
check "a second unit line is a bad line" grep -q 'a second unit line' \
    "$tmp/err"
equal "the first unit line stands" "$(head -1 "$tmp/out")" "# unit=bytes 0"

# a stack named like the line, with a count, is a stack
printf '# unit=bytes 3\n' | foldfilter >"$tmp/out"
equal "a unit line with a count is a stack" "$(cat "$tmp/out")" \
    "# unit=bytes 3"

# round trips keep it
for f in cpu heap goroutine; do
	pprof2folded $p/$f.pb.gz >"$tmp/a"
	# a graph draws no stack of 0 (the unit line is no stack)
	grep -v -e ' 0$' -e '^# unit=' "$tmp/a" >"$tmp/drawn"
	{ grep '^# unit=' "$tmp/a"; cat "$tmp/drawn"; } | LC_ALL=C sort \
	    >"$tmp/want"
	flamegraph-svg --minwidth 0 "$tmp/a" | svg2folded >"$tmp/b"
	compare "$f: flamegraph-svg | svg2folded keeps counts and unit" \
	    "$tmp/want" "$tmp/b"
	folded2pprof "$tmp/a" | pprof2folded >"$tmp/b"
	compare "$f: folded2pprof | pprof2folded keeps counts and unit" \
	    "$tmp/a" "$tmp/b"
	flamegraph-svg --flamechart "$tmp/a" | grep -c '# unit' >"$tmp/n"
	equal "$f: a flame chart draws no unit line" "$(cat "$tmp/n")" 0
done

# mixing: stops every tool that adds counts; --unit says how
printf 'x 1\n' >"$tmp/samples.folded"
for c in stackcollapse foldfilter folded2pprof foldmerge "foldcost --window 1s" \
    flamegraph-svg; do
	$c "$tmp/cpu.folded" "$tmp/samples.folded" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	equal "$c: samples after nanoseconds: status 1" "$rc" 1
	check "$c: ... says the units differ" grep -q 'different units' \
	    "$tmp/err"
done
for c in stackcollapse foldfilter foldmerge; do
	$c --unit nanoseconds "$tmp/cpu.folded" "$tmp/samples.folded" \
	    >"$tmp/out" 2>"$tmp/err"
	equal "$c --unit: added, status 0" "$?" 0
	equal "$c --unit: the total of both" "$(total "$tmp/out")" \
	    $(($(total "$tmp/cpu.folded") + 1))
done
exit 0
