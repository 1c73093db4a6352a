#!/usr/bin/env bash
# The fuzz targets of tests/fuzz (built by `make fuzz-build`, which make
# check runs when clang is there): each replays every input of
# tests/fuzz/regress/NAME/ and then fuzzes FUZZ_SMOKE_RUNS (4000) inputs
# from its seeds, a few seconds each. The smoke run is deterministic: the
# same seed (FUZZ_SEED, 1) and no rereading of the corpus on a timer, so
# it passes or fails the same way on every machine and every run; finding
# new bugs is the campaign's work (make fuzz, with a random seed). Runs
# once, with the plain build; under CI=true a missing clang or target is a
# failure, elsewhere a note.
# usage: tests/t-fuzz.sh BUILDDIR (the targets are FUZZ_BUILD's, build-fuzz)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
plain_only "fuzz targets: plain build only"
fb=${FUZZ_BUILD:-$top/build-fuzz}
runs=${FUZZ_SMOKE_RUNS:-4000}
seed=${FUZZ_SEED:-1}
need clang "make deps"

targets=$(ls tests/fuzz/fuzz-*.c 2>/dev/null | sed 's|.*/||; s|\.c$||')

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=16
for t in $targets; do
	name=${t#fuzz-}
	bin=$fb/tests/fuzz/$t
	if [ ! -x "$bin" ]; then
		# make check builds them; make check-fast does not
		if [ "${CI:-}" = true ]; then
			notok "$t: not built (make fuzz-build)"
		else
			note "$t skipped: not built (make fuzz-build)"
		fi
		continue
	fi
	if [ -d "tests/fuzz/regress/$name" ] &&
	    [ -n "$(ls -A "tests/fuzz/regress/$name")" ]; then
		if "$bin" -timeout=20 -rss_limit_mb=2048 \
		    "tests/fuzz/regress/$name"/* >"$tmp/log" 2>&1; then
			ok "$t: replays tests/fuzz/regress/$name ($(ls "tests/fuzz/regress/$name" | wc -l) inputs)"
		else
			notok "$t: replay of tests/fuzz/regress/$name"
			grep -m 5 -E 'Running|ERROR|property failed|SUMMARY' \
			    "$tmp/log" | sed 's/^/# /'
		fi
	fi
	mkdir -p "$tmp/corpus-$name" "$tmp/crash-$name"
	seeds=
	[ -d "tests/fuzz/seeds/$name" ] && seeds=tests/fuzz/seeds/$name
	dict=
	[ -e "tests/fuzz/$name.dict" ] && dict=-dict=tests/fuzz/$name.dict
	# a target of large, slow inputs says how large and how many
	max=4096 n=$runs
	[ -e "tests/fuzz/$name.max_len" ] && max=$(cat "tests/fuzz/$name.max_len")
	[ -e "tests/fuzz/$name.runs" ] && n=$(cat "tests/fuzz/$name.runs")
	# shellcheck disable=SC2086
	if "$bin" -seed="$seed" -runs="$n" -reload=0 -max_len="$max" \
	    -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$tmp/crash-$name/" $dict \
	    "$tmp/corpus-$name" $seeds >"$tmp/log" 2>&1; then
		ok "$t: fuzzed $n inputs from seed $seed"
	else
		notok "$t: fuzzing $n inputs from seed $seed found a crash (input below)"
		grep -m 5 -E 'ERROR|property failed|SUMMARY' "$tmp/log" |
		    sed 's/^/# /'
		for f in "$tmp/crash-$name"/*; do
			[ -e "$f" ] && od -c "$f" | head -n 8 | sed 's/^/# /'
		done
	fi
done
