#!/usr/bin/env bash
# foldfilter, foldtop and folddiff beyond the golden files: counts
# conserved by rewriting steps, write errors, hostile input, and the gate
# on the real captures. usage: tests/t-foldfilter.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"

cap=$top/testdata/folddiff/base-1.folded
app=$top/testdata/foldfilter/app.folded

# Rewriting steps never lose or invent samples.
"$b/foldfilter" --replace '^(\w+)_\w+$' '$1' --hide '^main$' \
	--collapse-recursion --max-depth 4 --strip-addrs --reverse \
	--prune-from '^parse' "$cap" >"$tmp/out"
check "foldfilter conserves counts" [ "$(total "$cap")" = "$(total "$tmp/out")" ]
check "foldfilter output sorted and merged" \
	sh -c "cut -d' ' -f1 '$tmp/out' | sort -c -u"

# Dropping steps lose exactly what they drop.
"$b/foldfilter" --grep '^checksum$' "$cap" >"$tmp/in"
"$b/foldfilter" --exclude '^checksum$' "$cap" >"$tmp/ex"
check "grep + exclude = all" \
	[ "$(total "$cap")" = "$(( $(total "$tmp/in") + $(total "$tmp/ex") ))" ]

# Output order is plain byte order of the stacks (sort(1) of unique
# lines), with names that are prefixes of others and without.
for vocab in "main parse parse_x lex lex0 a ab a0 a_ b" "main parse lex eval gc io net"; do
	awk -v vocab="$vocab" 'BEGIN {
		srand(7); n = split(vocab, w, " ")
		for (i = 0; i < 20000; i++) {
			d = 1 + int(rand() * 12); s = w[1 + int(rand() * n)]
			for (j = 1; j < d; j++) s = s ";" w[1 + int(rand() * n)]
			if (!(s in seen)) { seen[s] = 1; print s, 1 + int(rand() * 9) }
		}
	}' >"$tmp/gen"
	"$b/foldfilter" "$tmp/gen" >"$tmp/got"
	sort "$tmp/gen" >"$tmp/want"
	compare "byte order ($(echo "$vocab" | cut -d' ' -f4-5))" "$tmp/want" "$tmp/got"
	"$b/folddiff" "$tmp/gen" /dev/null | sed 's/ 0$//' >"$tmp/got"
	compare "folddiff byte order ($(echo "$vocab" | cut -d' ' -f4-5))" "$tmp/want" "$tmp/got"
done

# A reversed profile reversed again is the profile.
"$b/foldfilter" --reverse "$app" | "$b/foldfilter" --reverse >"$tmp/rr"
check "reverse twice" cmp -s "$tmp/rr" <("$b/foldfilter" "$app")

# foldtop's cum of the root frame is the total.
t=$("$b/foldtop" --format tsv --cum --top 1 "$cap" | awk 'NR == 2 { print $4 }')
check "foldtop cum of the root is the total" [ "$t" = "$(total "$cap")" ]

# A full disk is an error with a message, never a silent success.
for t in foldfilter foldtop; do
	full_disk "$t: write error" 1 "$b/$t" "$cap"
done
full_disk "folddiff: write error is status 2" 2 "$b/folddiff" "$cap" "$cap"

# Hostile input: random bytes, long lines, NULs, huge counts.
head -c 200000 /dev/urandom >"$tmp/junk" 2>/dev/null ||
	awk 'BEGIN { srand(1); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 256) }' >"$tmp/junk"
{
	printf 'a;b 18446744073709551615\na;b 1\n'
	printf 'x;%s 1\n' "$(head -c 100000 /dev/zero | tr '\0' 'y')"
	printf ';;; 3\n a 1\n0x 2\nc\0d 4\n'
} >"$tmp/odd"
for f in junk odd; do
	for cmd in "foldfilter --grep . --replace (.) \$1\$1 --strip-addrs" \
	    "foldtop" "folddiff --report $cap" "folddiff $cap"; do
		set -- $cmd
		t=$1
		shift
		capture "$b/$t" "$@" "$tmp/$f"
		if crashed "$rc" "$tmp/err"; then
			notok "$t on $f (status $rc)"
			excerpt "$tmp/err" 5
		else
			ok "$t on $f survives (status $rc)"
		fi
	done
done

# The gate on real captures: quiet on two runs of the same build (either
# order, period-weighted or sample counts), fires on the slowed one and
# names the function.
d=$top/testdata/folddiff
g=(--fail-if 'self>+1pp' --fail-if 'total>+10%')
for pair in "base-1 base-2" "base-2 base-1" "base-1.samples base-2.samples"; do
	set -- $pair
	"$b/folddiff" "${g[@]}" "$d/$1.folded" "$d/$2.folded" >/dev/null 2>"$tmp/err" &&
	    [ ! -s "$tmp/err" ]
	verdict "gate quiet: $1 vs $2" $?
done
for base in base-1 base-2 base-1.samples; do
	slow=slow
	case $base in *.samples) slow=slow.samples ;; esac
	"$b/folddiff" "${g[@]}" "$d/$base.folded" "$d/$slow.folded" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && [ "$(grep -c regression "$tmp/err")" = 1 ] &&
	    grep -q 'regression: checksum: ' "$tmp/err"
	verdict "gate fires: $base vs $slow" $?
done
exit 0
