#!/usr/bin/env bash
# The test suite. usage: tests/run.sh BUILDDIR [BUILDDIR ...] [TOOL ...]
#
# For each build directory (the plain build and the sanitizer build, side
# by side), all tests, or with TOOL operands only those of each TOOL (its
# goldens, tests/t-TOOL.sh and t-TOOL-*.sh, its --help and man page):
#   - unit tests: BUILDDIR/tests/test-*, each printing "ok NAME" / "FAIL NAME";
#   - golden tests: testdata/TOOL/NAME.cmd is a shell command run in
#     testdata/TOOL with BUILDDIR first on PATH; its stdout must equal
#     NAME.out, its stderr NAME.err when that exists, its exit status
#     NAME.rc when that exists (else 0). A crash, a sanitizer report or a
#     hang never counts as an expected failure. BLESS=1 re-records them
#     all, BLESS=TOOL only those of testdata/TOOL.
#   - script tests: tests/t-*.sh, run with BUILDDIR as $1, printing
#     "ok NAME" / "FAIL NAME" lines (and "# ..." notes);
#   - every binary answers --help and has a man page; mandoc -Tlint is clean.
# The last line is "N passed, N failed".
# ok, notok and judge (a crash, a sanitizer report, a hang, the exit
# status) are tests/lib.sh's, which counts in passed and failed.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 2
tmpdir

# Counts the "ok"/"FAIL" lines of a test program's output; a program that
# fails without saying which test failed counts as one failure.
count_lines() { # name status file
	local p f
	p=$(grep -c '^ok ' "$3") f=$(grep -c '^FAIL ' "$3")
	grep -E '^(FAIL|# )' "$3"
	passed=$((passed + p)) failed=$((failed + f))
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		notok "$1 (exit status $2)"
		tail -n 20 "$3" | sed 's/^/# /'
	fi
}

golden() { # builddir cmdfile
	local b=$1 c=$2 dir name base rc want
	dir=$(dirname "$c") name=$(basename "$c" .cmd)
	base=$dir/$name
	(cd "$dir" && PATH="$top/$b:$PATH" timeout 120 sh "$name.cmd") \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "${BLESS:-}" = 1 ] || [ "${BLESS:-}" = "$(basename "$dir")" ]; then
		cp "$tmp/out" "$base.out"
		if [ -s "$tmp/err" ] || [ -e "$base.err" ]; then cp "$tmp/err" "$base.err"; fi
		if [ "$rc" -ne 0 ]; then echo "$rc" >"$base.rc"; else rm -f "$base.rc"; fi
	fi
	want=0
	[ -e "$base.rc" ] && want=$(cat "$base.rc")
	judge "$b: $base" "$want" "" || return
	if ! cmp -s "$base.out" "$tmp/out"; then
		notok "$b: $base (stdout)"
		diff -u "$base.out" "$tmp/out" | head -n 40
	elif [ -e "$base.err" ] && ! cmp -s "$base.err" "$tmp/err"; then
		notok "$b: $base (stderr)"
		diff -u "$base.err" "$tmp/err" | head -n 40
	else
		ok "$b: $base"
	fi
}

# The operands: build directories (they hold binaries), then tools.
builds=() tools=()
for a in "$@"; do
	if [ ${#tools[@]} -eq 0 ] && [ -d "$a" ] && [ ! -d "testdata/$a" ]; then
		builds+=("$a")
	elif [ -d "testdata/$a" ] || [ -e "man/man1/$a.1" ]; then
		tools+=("$a")
	else
		echo "tests/run.sh: $a: neither a build directory nor a tool" >&2
		exit 2
	fi
done
[ ${#builds[@]} -gt 0 ] || { echo "usage: tests/run.sh BUILDDIR ... [TOOL ...]" >&2; exit 2; }

# wanted NAME: 0 when the tests of tool NAME are to run
wanted() {
	local t
	[ ${#tools[@]} -eq 0 ] && return 0
	for t in "${tools[@]}"; do
		case $1 in "$t" | "$t"-*) return 0 ;; esac
	done
	return 1
}

# One build directory's tests; its counts go to the file $2.
suite() { # builddir countfile
	local b=$1 t c x n s tmp=$tmp/suite.${2##*.} start=$SECONDS
	passed=0 failed=0
	mkdir "$tmp" || exit 2
	[ -d "$b" ] || { notok "$b: no such build directory"; echo "$passed $failed" >"$2"; return; }
	export FOLD_BUILD=$top/$b
	case $b in *san*) export SANITIZE=1 ;; *) unset SANITIZE ;; esac
	for t in "$b"/tests/test-*; do
		[ -x "$t" ] && [ ${#tools[@]} -eq 0 ] || continue
		"$t" >"$tmp/unit" 2>&1
		count_lines "$t" $? "$tmp/unit"
	done
	for c in testdata/*/*.cmd; do
		[ -e "$c" ] || continue
		x=${c#testdata/} x=${x%%/*}
		[ ${#tools[@]} -eq 0 ] || [[ " ${tools[*]} " == *" $x "* ]] || continue
		golden "$b" "$c"
	done
	for t in tests/t-*.sh; do
		[ -e "$t" ] || continue
		x=${t#tests/t-} x=${x%.sh}
		wanted "$x" || continue
		s=$SECONDS
		bash "$t" "$top/$b" >"$tmp/script" 2>&1
		count_lines "$b: $t" $? "$tmp/script"
		# make check is to stay under 15 minutes: say what takes long
		[ $((SECONDS - s)) -lt 60 ] ||
			echo "# $b: $t took $((SECONDS - s)) s"
	done
	for x in "$b"/*; do
		[ -f "$x" ] && [ -x "$x" ] || continue
		n=$(basename "$x")
		[ ${#tools[@]} -eq 0 ] || [[ " ${tools[*]} " == *" $n "* ]] || continue
		if "$x" --help >"$tmp/help" 2>&1 && grep -q "usage: $n" "$tmp/help"; then
			ok "$b: $n --help"
		else
			notok "$b: $n --help"
		fi
		if [ -e "man/man1/$n.1" ]; then ok "$b: $n has a man page"
		else notok "$b: $n has no man page man/man1/$n.1"; fi
	done
	# the two builds' suites run side by side: which one is the longer
	echo "# $b: the suite took $((SECONDS - start)) s"
	echo "$passed $failed" >"$2"
}

# The build directories run side by side (the plain and the sanitizer
# build on two cores), each into its own log, shown in order.
i=0
for b in "${builds[@]}"; do
	i=$((i + 1))
	suite "$b" "$tmp/count.$i" >"$tmp/log.$i" 2>&1 &
done
wait
i=0
for b in "${builds[@]}"; do
	i=$((i + 1))
	cat "$tmp/log.$i"
	read -r p f <"$tmp/count.$i" || { p=0 f=1; echo "FAIL $b: the suite did not finish"; }
	passed=$((passed + p)) failed=$((failed + f))
done

if command -v mandoc >/dev/null; then
	for m in man/man*/*.[15]; do
		[ -e "$m" ] || continue
		x=${m##*/} x=${x%.[15]}
		[ ${#tools[@]} -eq 0 ] || [[ " ${tools[*]} " == *" $x "* ]] || continue
		if mandoc -Tlint -Wwarning "$m" >"$tmp/lint" 2>&1; then ok "mandoc -Tlint $m"
		else notok "mandoc -Tlint $m"; sed 's/^/# /' "$tmp/lint"; fi
	done
else
	notok "mandoc is not installed (make deps)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
