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
awk -v dir="$tmp" '{ print > (dir "/part" (NR % 300) ".folded") }' $d/java.folded
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged"
cmp -s "$tmp/merged" $d/java.folded
check "foldmerge: 300 sorted inputs merge back into the whole" $?

# the same pieces reversed (unsorted) and mixed with sorted ones
for f in "$tmp"/part1*.folded; do sort -r "$f" > "$f.r" && mv "$f.r" "$f"; done
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged2"
cmp -s "$tmp/merged2" $d/java.folded
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
