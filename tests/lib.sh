# shellcheck shell=bash
# The harness of the test scripts, sourced by every tests/t-*.sh (and by
# tests/run.sh for its counting and its verdict on crashes):
#
#	# shellcheck source-path=SCRIPTDIR source=lib.sh
#	. "$(dirname "$0")/lib.sh"
#	setup "$@"
#	prefix="mytool: "
#	expect "a bad option is a usage error" 2 '^usage: mytool' mytool --bogus
#
# A test prints "ok NAME" or "FAIL NAME" (then "# " lines that explain
# the failure); tests/run.sh counts those lines, so a test's NAME is what
# a reader sees and should stay stable. A crash, a sanitizer report or a
# hang never passes as an expected failure.
#
# Sourcing sets `set -u`, LC_ALL=C, the sanitizer options tests/run.sh
# runs with (ASan exits 99, UBSan 98, so that `crashed` knows them), and:
#   top      the source tree, absolute
#   prefix   put before every test NAME by ok and notok (empty)
#   passed, failed
#            how many ok and notok lines were printed
#   timeout_secs
#            the bound of a command run by capture (300 s)
#   count_re the ERE of a count that sound accepts ([0-9]+; read by awk,
#            so a dot is written [.], not \.)
#
# Setting up
#   setup BUILDDIR
#	b = BUILDDIR made absolute (usage error and status 2 when it is not
#	a directory), first on PATH; SANITIZE=1 when BUILDDIR's name holds
#	"san" and SANITIZE is unset (as tests/run.sh does); a temporary
#	directory (tmpdir); the working directory $top.
#   tmpdir
#	tmp = a new temporary directory, removed at exit with the exit hooks.
#   at_exit COMMAND
#	COMMAND (a string, evaluated) runs at exit, before tmp is removed.
#
# Reporting
#   ok NAME
#	prints "ok NAME" (after prefix).
#   notok NAME [NOTE...]
#	prints "FAIL NAME" (after prefix), then each non-empty NOTE's lines
#	as "# " lines; returns 1.
#   note TEXT...
#	prints "# TEXT".
#   excerpt FILE [LINES]
#	the first LINES (10) lines of FILE as "# " lines, cut at 300 bytes.
#   verdict NAME STATUS
#	ok NAME when STATUS is 0, else notok NAME; returns STATUS.
#   check NAME COMMAND...
#	runs COMMAND, its output kept aside: ok NAME when it succeeds, else
#	notok NAME and the first 20 lines of that output; returns its status.
#   not COMMAND...
#	succeeds when COMMAND fails (for check, which takes no "!").
#   equal NAME ACTUAL EXPECTED
#	ok NAME when the two strings are the same, else notok "NAME: got
#	ACTUAL, want EXPECTED"; returns 0 or 1.
#   compare NAME EXPECTED ACTUAL
#	ok NAME when the files are the same bytes, else notok NAME with the
#	start of `diff -u EXPECTED ACTUAL`; returns 0 or 1.
#
# Running the tools
#   capture COMMAND...
#	runs COMMAND (an executable: bounded by timeout_secs) with its
#	standard output into $tmp/out and its standard error into $tmp/err;
#	sets rc to its exit status and returns it.
#   crashed STATUS [ERRFILE]
#	true when a run ended by a signal or a timeout (status 124 and up),
#	by ASan (99) or UBSan (98), or left a sanitizer report in ERRFILE
#	(looked for in the sanitizer run only: a plain build makes none).
#   judge NAME STATUS ERE
#	after capture: true when the run did not crash, exited STATUS and,
#	unless ERE is empty, said something matching ERE on standard error;
#	else notok NAME, saying which, and false.
#   expect NAME STATUS ERE COMMAND...
#	capture COMMAND, judge NAME STATUS ERE, and ok NAME when it holds.
#   sound COMMAND...
#	capture COMMAND: true when it did not crash, exited 0 or 1 and wrote
#	only well-formed folded lines (valid_folded, counts matching
#	count_re); for damaged input.
#   bounded KIB COMMAND...
#	runs COMMAND (in a subshell) with at most KIB KiB of address space
#	(ulimit -v), but unbounded in the sanitizer run, whose shadow memory
#	takes terabytes of it.
#   full_disk NAME STATUS COMMAND...
#	COMMAND writing to /dev/full must exit STATUS, without crashing, and
#	say "write error" or "No space" (nothing is run without /dev/full).
#
# Data
#   total [FILE...]
#	the sum of the last field of each line (a folded profile's samples).
#   valid_folded FILE [COUNT-ERE]
#	true when every line of FILE is "frame;frame... COUNT", with no
#	empty frame; COUNT matches COUNT-ERE (an integer: [0-9]+).
#   damage SRC CUT K DUP
#	two damaged copies of SRC: $tmp/in, its first CUT bytes; $tmp/in2,
#	its lines with every K-th dropped and every (K + DUP)-th doubled.
#
# Preconditions
#   sanitized
#	true in the sanitizer run (SANITIZE set).
#   plain_only TEXT
#	in the sanitizer run, notes TEXT and ends the script (status 0).
#   skip TEXT
#	notes TEXT and ends the script (status 0).
#   have COMMAND [PACKAGE]
#	true when COMMAND is installed; when it is not, a failure under CI
#	(CI=true), which installs everything, and a note elsewhere.
#   need COMMAND [PACKAGE]
#	have COMMAND, or end the script (status 0).
#   need_browser
#	chrome = the path of chromium (or chromium-browser, google-chrome),
#	as need does when there is none.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LC_ALL=C
# the scripts import bench/pbwire.py and gen_fleet.py: no __pycache__ left
# in the source tree
export PYTHONDONTWRITEBYTECODE=1
export ASAN_OPTIONS=exitcode=99:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1
prefix=
passed=0 failed=0
timeout_secs=300
count_re='[0-9]+'
tmp=
lib_exit_hooks=()

setup() {
	if [ -z "${1:-}" ] || [ ! -d "$1" ]; then
		echo "usage: $0 BUILDDIR" >&2
		exit 2
	fi
	b=$(cd "$1" && pwd) || exit 2
	export PATH="$b:$PATH"
	if [ -z "${SANITIZE+set}" ]; then
		case ${b##*/} in *san*) export SANITIZE=1 ;; esac
	fi
	tmpdir
	cd "$top" || exit 2
}

tmpdir() {
	tmp=$(mktemp -d) || exit 2
	trap lib_cleanup EXIT
}

at_exit() { lib_exit_hooks+=("$1"); }

lib_cleanup() {
	local h
	for h in ${lib_exit_hooks[@]+"${lib_exit_hooks[@]}"}; do
		eval "$h"
	done
	[ -n "$tmp" ] && rm -rf "$tmp"
}

ok() {
	passed=$((passed + 1))
	echo "ok $prefix$1"
}

notok() {
	local n
	failed=$((failed + 1))
	echo "FAIL $prefix$1"
	shift
	for n in "$@"; do
		[ -n "$n" ] && printf '%s\n' "$n" | sed 's/^/# /'
	done
	return 1
}

note() { echo "# $*"; }

excerpt() { head -n "${2:-10}" "$1" | cut -c1-300 | sed 's/^/# /'; }

verdict() {
	if [ "$2" = 0 ]; then ok "$1"; else notok "$1"; fi
	return "$2"
}

check() {
	local name=$1 rc
	shift
	"$@" >"$tmp/check.log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then ok "$name"; else
		notok "$name"
		excerpt "$tmp/check.log" 20
	fi
	return "$rc"
}

not() { ! "$@"; }

equal() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1: got $2, want $3"; fi
}

compare() {
	if cmp -s "$2" "$3"; then ok "$1"; return 0; fi
	notok "$1"
	diff -u "$2" "$3" | head -n 20 | cut -c1-300 | sed 's/^/# /'
	return 1
}

capture() {
	if [ "$(type -t "$1")" = file ]; then
		timeout "$timeout_secs" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		"$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	return "$rc"
}

crashed() {
	[ "$1" -ge 124 ] || [ "$1" -eq 98 ] || [ "$1" -eq 99 ] ||
	    { sanitized && [ -s "${2:-}" ] &&
	    grep -qE 'Sanitizer|runtime error:' "$2"; }
}

judge() {
	if crashed "$rc" "$tmp/err"; then
		notok "$1 (crashed or hung: status $rc)"
		excerpt "$tmp/err" 10
	elif [ "$rc" != "$2" ]; then
		notok "$1 (status $rc, expected $2)"
		excerpt "$tmp/err" 5
	elif [ -n "$3" ] && ! grep -qE -- "$3" "$tmp/err"; then
		notok "$1 (message does not match /$3/)"
		excerpt "$tmp/err" 5
	else
		return 0
	fi
	return 1
}

expect() {
	local name=$1 want=$2 re=$3
	shift 3
	capture "$@"
	judge "$name" "$want" "$re" && ok "$name"
}

sound() {
	capture "$@"
	! crashed "$rc" "$tmp/err" && [ "$rc" -le 1 ] &&
	    valid_folded "$tmp/out" "$count_re"
}

bounded() {
	if sanitized; then
		"${@:2}"
	else
		(ulimit -v "$1"; "${@:2}")
	fi
}

full_disk() {
	local name=$1 want=$2 rc
	shift 2
	[ -w /dev/full ] || return 0
	"$@" >/dev/full 2>"$tmp/err"
	rc=$?
	if crashed "$rc" "$tmp/err" || [ "$rc" != "$want" ] ||
	    ! grep -q 'write error\|No space' "$tmp/err"; then
		notok "$name (status $rc, expected $want and a write error)"
		excerpt "$tmp/err" 3
	else
		ok "$name"
	fi
}

total() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$@"; }

valid_folded() {
	awk -v re="^[^;]+(;[^;]+)* ${2:-[0-9]+}\$" '$0 !~ re { bad = 1 }
	    END { exit bad }' "$1"
}

damage() {
	head -c "$2" "$1" >"$tmp/in"
	awk -v k="$3" -v d="$4" 'NR % k == 0 { next } { print }
	    NR % (k + d) == 0 { print }' "$1" >"$tmp/in2"
}

sanitized() { [ -n "${SANITIZE:-}" ]; }

plain_only() {
	sanitized || return 0
	note "$1"
	exit 0
}

skip() {
	note "$1"
	exit 0
}

have() {
	command -v "$1" >/dev/null && return 0
	if [ "${CI:-}" = true ]; then
		notok "$1 is not installed${2:+ ($2)}"
	else
		note "$1 is not installed${2:+ ($2)}: skipped"
	fi
	return 1
}

need() { have "$@" || exit 0; }

# speedscope_each FILE...: what the speedscope app says of each FILE, one
# line a profile (tests/speedscope-load.sh), all loaded in one browser,
# whose start-up is most of a load's time: the K-th file's (from 1) in
# $tmp/load.K; none when the harness failed before that file (its
# messages in $tmp/load.err). Skips the script where there is no browser,
# outside CI.
speedscope_each() {
	"$top/tests/speedscope-load.sh" --by-file "$@" >"$tmp/loads" \
	    2>"$tmp/load.err"
	[ $? = 77 ] && [ "${CI:-}" != true ] && skip "$(cat "$tmp/load.err")"
	rm -f "$tmp"/load.[0-9]*
	awk -v d="$tmp" '/^file\t/ { if (f) close(f); f = d "/load." ++k
		printf "" >f; next } { print >f }' "$tmp/loads"
}

# speedscope_opened K NAME: 0 when speedscope read the K-th file of
# speedscope_each, its lines then in $tmp/load; else NAME is not ok.
speedscope_opened() {
	if [ -e "$tmp/load.$1" ] && ! grep -q '^error' "$tmp/load.$1"; then
		cp "$tmp/load.$1" "$tmp/load"
		return 0
	fi
	notok "$2" "$(cat "$tmp/load.$1" "$tmp/load.err" 2>/dev/null)"
	return 1
}

need_browser() {
	local c
	for c in chromium chromium-browser google-chrome; do
		# shellcheck disable=SC2034 # the caller's
		chrome=$(command -v "$c") && return 0
	done
	need chromium
}
