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

# -j: the groups the chain of rounds would merge are merged each on its
# own, on threads, and what they say is said in the chain's order. 1,000
# sorted inputs with bad lines in several (in different groups, their
# warnings interleaved by key) and an unreadable one give the same
# output, messages and status at -j1, -j2 and -j7 as under ulimit -n 142,
# where descriptors are too few for the groups and the chain merges them
# (128 at a time, as at any -j).
mkdir "$tmp/j"
awk -v dir="$tmp/j" 'BEGIN { for (i = 0; i < 20000; i++)
	printf "main;f%06d;g %d\n", i, i % 7 + 1 > sprintf("%s/p%04d.folded", dir, i % 1000) }'
for k in 3:17 130:2 200:9 260:4 400:12 401:1 640:6 900:19 999:3; do
	f=$tmp/j/p$(printf %04d "${k%:*}").folded
	awk -v at="${k#*:}" '{ print } NR == at { print "a bad line" }' "$f" >"$f.b" &&
	    mv "$f.b" "$f"
done
rm "$tmp/j/p0500.folded" && mkdir "$tmp/j/p0500.folded"
jrun() {	# NAME [ULIMIT] -- ARGS
	local name=$1 lim=$2
	shift 3
	(if [ -n "$lim" ]; then ulimit -n "$lim"; fi
	 exec "$b/foldmerge" "$@" "$tmp"/j/p*.folded) >"$tmp/j.$name.out" \
	    2>"$tmp/j.$name.err"
	echo $? >"$tmp/j.$name.rc"
}
jsame() {
	cmp -s "$tmp/j.$1.out" "$tmp/j.$2.out" &&
	    cmp -s "$tmp/j.$1.err" "$tmp/j.$2.err" &&
	    cmp -s "$tmp/j.$1.rc" "$tmp/j.$2.rc"
}
jrun chain 142 -- -j1
[ "$(grep -c "count is not a number" "$tmp/j.chain.err")" = 5 ] &&
    grep -q "9 bad lines" "$tmp/j.chain.err" &&
    grep -q "p0500.folded: Is a directory" "$tmp/j.chain.err" &&
    [ "$(cat "$tmp/j.chain.rc")" = 1 ]
verdict "foldmerge -j: bad lines in 9 of 1,000 inputs, one unreadable" $?
for j in 1 2 7; do
	jrun "$j" "" -- -j"$j"
	jsame chain "$j"
	verdict "foldmerge -j$j: as the chain of rounds, messages in its order" $?
done
jrun chain-strict 142 -- -j1 --strict
for j in 1 2; do
	jrun "strict$j" "" -- -j"$j" --strict
	jsame chain-strict "strict$j" && [ ! -s "$tmp/j.strict$j.out" ]
	verdict "foldmerge -j$j --strict: stops at the chain's first bad line" $?
done
# ... and a file gone between its scan and its group's merge is said in
# the chain's place too (the FIFO read after the scans holds foldmerge
# until it is removed)
for name in chain-gone:142:-j1 gone1::-j1 gone2::-j2; do
	IFS=: read -r name lim j <<<"$name"
	printf 'zzz 1\n' >"$tmp/gone.folded"
	rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
	(if [ -n "$lim" ]; then ulimit -n "$lim"; fi
	 exec timeout 120 "$b/foldmerge" "$j" "$tmp/gone.folded" \
	    "$tmp"/j/p*.folded "$tmp/fifo") >"$tmp/j.$name.out" \
	    2>"$tmp/j.$name.err" &
	timeout 60 sh -c 'exec 7>"$1" && rm "$2"' sh "$tmp/fifo" "$tmp/gone.folded"
	wait $!
	echo $? >"$tmp/j.$name.rc"
done
rm -f "$tmp/fifo"
grep -q "gone.folded: No such file or directory" "$tmp/j.chain-gone.err" &&
    cmp -s "$tmp/j.chain-gone.out" "$tmp/j.1.out" && jsame chain-gone gone1 &&
    jsame chain-gone gone2
verdict "foldmerge -j: a file gone before its group's merge, said in order" $?
# Groups are merged on their own only when the order of the sums does not
# matter: not when a count is a fraction (1e16 + 0.6 is 1e16 each time,
# where the 0.6s of a group add up first) ...
mkdir "$tmp/f" "$tmp/o"
for i in $(seq -w 0 999); do
	printf 'a 0.6\n' >"$tmp/f/p$i.folded"
	printf 'a 1\n' >"$tmp/o/p$i.folded"
done
printf 'a 10000000000000000\n' >"$tmp/f/p000.folded"
# ... nor when the counts could pass 2^64-1: the chain fails in a round
# before the last, having written nothing
printf 'a 1\nb 9223372036854775808\n' | tee "$tmp/o/p000.folded" >"$tmp/o/p200.folded"
for d in f o; do
	(ulimit -n 142 && exec "$b/foldmerge" "$tmp/$d"/p*.folded) \
	    >"$tmp/$d.chain" 2>&1
	"$b/foldmerge" -j2 "$tmp/$d"/p*.folded >"$tmp/$d.j2" 2>&1
done
[ "$(cat "$tmp/f.chain")" = "a 10000000000000000" ] && cmp -s "$tmp/f.chain" "$tmp/f.j2"
verdict "foldmerge -j2: fractions added in the order of the inputs" $?
grep -q "^foldmerge: b: count overflow" "$tmp/o.chain" && [ "$(wc -l <"$tmp/o.chain")" = 1 ] &&
    cmp -s "$tmp/o.chain" "$tmp/o.j2"
verdict "foldmerge -j2: an overflow said before anything is written" $?

# -j with unsorted inputs (scanned on the threads, summed in the order of
# the inputs): the same output, messages and status as one thread's (bad
# lines, unit lines, a unit that differs, --strict, an overflow, and
# fractions, whose sums depend on the order of the additions)
mkdir "$tmp/u"
for i in $(seq -w 0 59); do
	{ echo "# unit=nanoseconds 0"
	  awk -v i="$i" 'BEGIN { for (k = 40; k > 0; k--) printf "main;f%03d;g %d\nmain;f%03d %d\n", (k * 7 + i) % 50, k, k % 9, i }'
	} >"$tmp/u/u$i.folded"
done
printf 'a bad line\n' >>"$tmp/u/u07.folded"
printf 'main;x 1\nanother bad line\n' >>"$tmp/u/u33.folded"
mkdir "$tmp/u2" && cp "$tmp"/u/*.folded "$tmp/u2" &&
    printf '# unit=cycles 0\nz 1\ny 1\n' >"$tmp/u2/u40.folded"
mkdir "$tmp/u3" && cp "$tmp"/u/*.folded "$tmp/u3" &&
    printf '# unit=nanoseconds 0\nb 1\na 18446744073709551615\n' >"$tmp/u3/u10.folded" &&
    printf '# unit=nanoseconds 0\nb 1\na 1\n' >"$tmp/u3/u20.folded"
mkdir "$tmp/u4" && printf 'b 1\na 10000000000000000\n' >"$tmp/u4/u0.folded" &&
    printf 'b 1\na 0.6\na 0.6\na 0.6\n' >"$tmp/u4/u1.folded"
mkdir "$tmp/u5" && printf 'b 1\na 0.6\n' >"$tmp/u5/u0.folded" &&
    printf 'b 1\na 10000000000000000\na 1\na 1\na 1\n' >"$tmp/u5/u1.folded"
for set in u:"" u:--strict u2:"" u3:"" u4:"" u5:""; do
	d=${set%%:*} o=${set#*:}
	for j in 1 2 7; do
		"$b/foldmerge" -j$j $o "$tmp/$d"/*.folded >"$tmp/$d$o.$j.out" \
		    2>"$tmp/$d$o.$j.err"
		echo $? >"$tmp/$d$o.$j.rc"
	done
	r=0
	for j in 2 7; do
		for x in out err rc; do
			cmp -s "$tmp/$d$o.1.$x" "$tmp/$d$o.$j.$x" || r=1
		done
	done
	verdict "foldmerge -j: $d $o unsorted inputs as on one thread" $r
done
grep -q "u33.folded:83: count is not a number" "$tmp/u.1.err" &&
    grep -q "u07.folded:82" "$tmp/u--strict.1.err" &&
    grep -q "counts cycles, but the inputs before it nanoseconds" "$tmp/u2.1.err" &&
    grep -q "u20.folded:3: .*count overflow" "$tmp/u3.1.err" &&
    [ "$(cat "$tmp/u4.1.out")" = "a 10000000000000000
b 2" ] && [ "$(cat "$tmp/u5.1.out")" = "a 10000000000000000
b 2" ]
verdict "foldmerge -j: the unsorted inputs say what they should" $?
# threads that would need more descriptors than are free are fewer
for j in 1 64; do
	(ulimit -n 20 && exec "$b/foldmerge" -j$j "$tmp"/j/p0*.folded) \
	    >"$tmp/lim$j.out" 2>"$tmp/lim$j.err"
	echo $? >"$tmp/lim$j.rc"
done
cmp -s "$tmp/lim1.out" "$tmp/lim64.out" && cmp -s "$tmp/lim1.err" "$tmp/lim64.err" &&
    cmp -s "$tmp/lim1.rc" "$tmp/lim64.rc" && ! grep -q "Too many" "$tmp/lim64.err"
verdict "foldmerge -j64 under ulimit -n 20" $?
