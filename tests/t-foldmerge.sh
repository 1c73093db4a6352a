#!/usr/bin/env bash
# foldmerge beyond golden files: hundreds of inputs (merged through
# temporary files), conservation of counts, and a closed pipe.
# usage: tests/t-foldmerge.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/foldmerge

# 300 sorted pieces of a sorted profile merge back into it
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;f%05d;g %d\n", i, i + 1 }' >"$tmp/whole"
awk -v dir="$tmp" '{ print > (dir "/part" (NR % 300) ".folded") }' "$tmp/whole"
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged"
cmp -s "$tmp/merged" "$tmp/whole"
verdict "foldmerge: 300 sorted inputs merge back into the whole" $?

# with few descriptors, more rounds through temporary files: never a
# partial merge. ulimit -n sets the hard limit too; a soft limit alone
# foldmerge raises to the hard one.
(ulimit -n 40 && "$b/foldmerge" "$tmp"/part*.folded) >"$tmp/merged" 2>"$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/merged" "$tmp/whole"
verdict "foldmerge: 300 sorted inputs under ulimit -n 40" $?
(ulimit -Sn 20 && "$b/foldmerge" "$tmp"/part*.folded) >"$tmp/merged" 2>"$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/merged" "$tmp/whole"
verdict "foldmerge: 300 sorted inputs under ulimit -Sn 20" $?
# ... and a file that cannot be opened for another reason is still
# reported: gone.folded is removed after its scan, before the merge (the
# FIFO after it holds foldmerge until then)
printf 'zzz 1\n' >"$tmp/gone.folded"
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
(ulimit -n 40 && exec timeout 120 "$b/foldmerge" "$tmp"/part*.folded \
    "$tmp/gone.folded" "$tmp/fifo") >"$tmp/merged" 2>"$tmp/err" &
timeout 60 sh -c 'exec 7>"$1" && rm "$2"' sh "$tmp/fifo" "$tmp/gone.folded"
wait $!
[ $? = 1 ] && cmp -s "$tmp/merged" "$tmp/whole" &&
    [ "$(cat "$tmp/err")" = "foldmerge: $tmp/gone.folded: No such file or directory" ]
verdict "foldmerge: under ulimit -n 40, a file gone before its merge is reported" $?
rm -f "$tmp/fifo"

# their groups are merged in TMPDIR, not in /tmp (tmpfile(3) ignores it)
mkdir "$tmp/t"
TMPDIR=$tmp/t/missing "$b/foldmerge" "$tmp"/part*.folded >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "temporary file in $tmp/t/missing: No such file" "$tmp/err"
verdict "foldmerge: temporary files in TMPDIR" $?
TMPDIR=$tmp/t "$b/foldmerge" "$tmp"/part*.folded | cmp -s - "$tmp/whole" &&
    [ -z "$(ls -A "$tmp/t")" ]
verdict "foldmerge: temporary files in TMPDIR, none left" $?

# the same pieces reversed (unsorted) and mixed with sorted ones
for f in "$tmp"/part1*.folded; do sort -r "$f" > "$f.r" && mv "$f.r" "$f"; done
"$b/foldmerge" "$tmp"/part*.folded > "$tmp/merged2"
cmp -s "$tmp/merged2" "$tmp/whole"
verdict "foldmerge: sorted and unsorted inputs together" $?

# counts are conserved
in=$(total $d/rust.folded $d/java.folded $d/dd.folded)
out=$("$b/foldmerge" $d/rust.folded $d/java.folded $d/dd.folded | total)
[ "$in" = "$out" ]
verdict "foldmerge: total out equals total in ($in)" $?

# a closed pipe ends foldmerge silently by SIGPIPE, as it ends cat
awk 'BEGIN { for (i = 0; i < 200000; i++) print "main;f" i, 1 }' > "$tmp/big"
( "$b/foldmerge" "$tmp/big" 2>"$tmp/err"; echo $? > "$tmp/rc" ) | head -c 10 >/dev/null
[ "$(cat "$tmp/rc")" = 141 ] && [ ! -s "$tmp/err" ]
verdict "foldmerge: a closed pipe ends it silently by SIGPIPE" $?
