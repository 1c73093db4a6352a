#!/usr/bin/env bash
# foldmerge beyond golden files: hundreds of inputs (merged through
# temporary files), conservation of counts, and a closed pipe.
b=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=testdata/foldmerge
check() { if [ "$2" = 0 ]; then echo "ok $1"; else echo "FAIL $1"; fi; }
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$@"; }

# 300 sorted pieces of a sorted profile merge back into it
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;f%05d;g %d\n", i, i + 1 }' >"$tmp/whole"
awk -v dir="$tmp" '{ print > (dir "/part" (NR % 300) ".folded") }' "$tmp/whole"
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged"
cmp -s "$tmp/merged" "$tmp/whole"
check "foldmerge: 300 sorted inputs merge back into the whole" $?

# their groups are merged in TMPDIR, not in /tmp (tmpfile(3) ignores it)
mkdir "$tmp/t"
TMPDIR=$tmp/t/missing "$b/foldmerge" "$tmp"/part*.folded >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "temporary file in $tmp/t/missing: No such file" "$tmp/err"
check "foldmerge: temporary files in TMPDIR" $?
TMPDIR=$tmp/t "$b/foldmerge" "$tmp"/part*.folded | cmp -s - "$tmp/whole" &&
    [ -z "$(ls -A "$tmp/t")" ]
check "foldmerge: temporary files in TMPDIR, none left" $?

# the same pieces reversed (unsorted) and mixed with sorted ones
for f in "$tmp"/part1*.folded; do sort -r "$f" > "$f.r" && mv "$f.r" "$f"; done
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged2"
cmp -s "$tmp/merged2" "$tmp/whole"
check "foldmerge: sorted and unsorted inputs together" $?

# counts are conserved
in=$(total $d/rust.folded $d/java.folded $d/dd.folded)
out=$("$b/foldmerge" $d/rust.folded $d/java.folded $d/dd.folded | total)
[ "$in" = "$out" ]
check "foldmerge: total out equals total in ($in)" $?

# a closed pipe is a write error with a message, not a silent exit
awk 'BEGIN { for (i = 0; i < 200000; i++) print "main;f" i, 1 }' > "$tmp/big"
( "$b/foldmerge" "$tmp/big" 2>"$tmp/err"; echo $? > "$tmp/rc" ) | head -c 10 >/dev/null
[ "$(cat "$tmp/rc")" = 1 ] && grep -q 'write error: Broken pipe' "$tmp/err"
check "foldmerge: closed pipe exits 1 with a message" $?
