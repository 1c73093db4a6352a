#!/usr/bin/env bash
# svg2folded's test of correctness: render with flamegraph-svg, recover
# the stacks, render them again: the frames (names and counts, in the
# titles) must be the same, for every option set of flamegraph-svg. Then
# frames in shuffled order, and more frames than are sorted in memory.
# usage: tests/t-svg2folded.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/flamegraph-svg
titles() { grep -o '<title>[^<]*</title>' "$1" | grep -v "${NOTITLE:-^$}" | sort; }

# roundtrip NAME INPUT "RENDER OPTIONS" "RE-RENDER OPTIONS"
roundtrip() {
	"$b/flamegraph-svg" $3 "$2" >"$tmp/a.svg" 2>/dev/null &&
	"$b/svg2folded" "$tmp/a.svg" >"$tmp/a.folded" 2>"$tmp/err" &&
	"$b/flamegraph-svg" $4 "$tmp/a.folded" >"$tmp/b.svg" 2>/dev/null &&
	titles "$tmp/a.svg" >"$tmp/a.t" && titles "$tmp/b.svg" >"$tmp/b.t" &&
	[ -s "$tmp/a.t" ] && cmp -s "$tmp/a.t" "$tmp/b.t"
	local rc=$?
	verdict "svg2folded: round trip $1" $rc
	[ $rc = 0 ] || diff "$tmp/a.t" "$tmp/b.t" | head -n 10 | sed 's/^/# /'
}

for f in small.folded diff.folded java.folded example.folded.gz \
    hostile.folded; do
	roundtrip "$f" "$d/$f" "" ""
	roundtrip "$f --inverted" "$d/$f" "--inverted" ""
	roundtrip "$f --pretty-xml --no-javascript" "$d/$f" \
	    "--pretty-xml --no-javascript" ""
done
roundtrip "--reverse" "$d/java.folded" "--reverse" ""
roundtrip "--countname bytes --factor 1000" "$d/java.folded" \
    "--countname bytes --factor 1000" "--countname bytes"
roundtrip "--total" "$d/small.folded" "--total 500" "--total 500"
# frames left out at the base are not written (reported), so the root
# counts less: with the original total, the other frames are the same
t=$(awk '{ s += $NF } END { print s }' "$d/java.folded")
NOTITLE='<title>all (' roundtrip "--minwidth 10%" "$d/java.folded" \
    "--minwidth 10%" "--minwidth 10% --total $t"
roundtrip "--minwidth 5 (pixels)" "$d/java.folded" "--minwidth 5" "--minwidth 5"
roundtrip "--width --height --fontsize" "$d/java.folded" \
    "--width 300 --height 10 --fontsize 8" "--width 300 --height 10 --fontsize 8"
roundtrip "--colors java --hash" "$d/java.folded" "--colors java --hash" ""
roundtrip "--title --subtitle --notes" "$d/small.folded" \
    "--title T --subtitle S --notes N" ""
roundtrip "--negate (same option again)" "$d/small.folded" "--negate" ""

# pruned frames: totals are kept
"$b/flamegraph-svg" --minwidth 20 "$d/java.folded" | "$b/svg2folded" >"$tmp/p.folded" 2>/dev/null
[ "$(awk '{ s += $NF } END { print s }' "$tmp/p.folded")" = \
    "$(awk '{ s += $NF } END { print s }' "$d/java.folded")" ]
verdict "svg2folded: frames too narrow to draw keep their counts in the parent" $?

# frames in any order: shuffle the <g> blocks of a pretty SVG
shuffled() { # svg
	awk 'BEGIN { srand(7) }
	    /^    <g>$/ { inb = 1; blk = $0 "\n"; next }
	    inb { blk = blk $0 "\n"; if ($0 ~ /^    <\/g>$/) { inb = 0; b[n++] = blk }; next }
	    /^  <\/g>$/ && n { for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = b[i]; b[i] = b[j]; b[j] = t }
	                       for (i = 0; i < n; i++) printf "%s", b[i]; n = 0 }
	    { print }' "$1"
}
"$b/flamegraph-svg" --pretty-xml "$d/java.folded" >"$tmp/j.svg"
shuffled "$tmp/j.svg" >"$tmp/js.svg"
! cmp -s "$tmp/j.svg" "$tmp/js.svg" &&
    "$b/svg2folded" "$tmp/j.svg" >"$tmp/j1" && "$b/svg2folded" "$tmp/js.svg" >"$tmp/j2" &&
    cmp -s "$tmp/j1" "$tmp/j2"
verdict "svg2folded: frames in shuffled order give the same stacks" $?

# more frames than are kept in memory (131072): in drawing order, through
# temporary files, the profile exactly; shuffled, rebuilt by place
python3 "$top/bench/gen_folded.py" 8000 3 >"$tmp/big.folded"
"$b/flamegraph-svg" --pretty-xml --no-javascript --width 100000 --minwidth 0 \
    "$tmp/big.folded" >"$tmp/big.svg"
frames=$(grep -c '^    <g>$' "$tmp/big.svg")
shuffled "$tmp/big.svg" >"$tmp/bigs.svg"
"$b/svg2folded" "$tmp/bigs.svg" >"$tmp/big1" 2>"$tmp/err" &&
    [ ! -s "$tmp/err" ] && [ "$frames" -gt 131072 ] &&
    "$b/flamegraph-svg" --pretty-xml --no-javascript --width 100000 --minwidth 0 \
        "$tmp/big1" >"$tmp/big2.svg" &&
    titles "$tmp/big.svg" >"$tmp/t1" && titles "$tmp/big2.svg" >"$tmp/t2" &&
    cmp -s "$tmp/t1" "$tmp/t2"
verdict "svg2folded: $frames frames in shuffled order" $?
"$b/svg2folded" "$tmp/big.svg" 2>"$tmp/err" | cmp -s - <(LC_ALL=C sort "$tmp/big.folded") &&
    [ ! -s "$tmp/err" ]
verdict "svg2folded: $frames frames in drawing order, kept in temporary files: the profile" $?
