#!/usr/bin/env bash
# Times stackcollapse-jfr on large JFR recordings, each made by
# concatenating COPIES times a JDK 17 recording of testdata (a recording
# is a run of chunks, so the copies are one valid recording of many
# chunks; copies of one recording, since the JDK's own parser takes the
# constants of a chunk to be those of the chunks before it, and fails on
# different recordings put together), against what a user does without
# it, `jfr print --stack-depth 2048 --events E | stackcollapse-jfr
# --event E` (target: 20 times as fast), measured in the same run when
# jfr is installed. Peak memory must follow the largest chunk, not the
# file.
# usage: bench/stackcollapse-jfr-binary.sh BUILDDIR [COPIES]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [COPIES]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
copies=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
d=$top/testdata/stackcollapse-jfr/binary
export RUNS=${RUNS:-3}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

sc=$b/stackcollapse-jfr
for re in cpu:ExecutionSample alloc:ObjectAllocationSample; do
	r=${re%%:*} e=${re#*:}
	gzip -dcf "$d/$r".jfr* >"$tmp/one.jfr"
	for i in $(seq "$copies"); do cat "$tmp/one.jfr"; done >"$tmp/big.jfr"
	bytes=$(wc -c <"$tmp/big.jfr")
	"$sc" --event "$e" "$tmp/big.jfr" >/dev/null 2>&1	# warm the cache
	t=$(best_time "$sc" --event "$e" "$tmp/big.jfr")
	mem=$(peak_mb "$sc" --event "$e" "$tmp/big.jfr")
	awk -v e="$e" -v r="$r" -v c="$copies" -v t="$t" -v m="$mem" \
	    -v n="$bytes" 'BEGIN {
		printf "stackcollapse-jfr (recordings): %s.jfr x%d, %.0f MB, %s: %.3f s, %.0f MB/s; peak %.1f MB\n",
		    r, c, n / 1e6, e, t, (t > 0 ? n / t / 1e6 : 0), m }'
	if command -v jfr >/dev/null 2>&1; then
		p=$(best_time sh -c "jfr print --stack-depth 2048 --events $e \
		    '$tmp/big.jfr' | '$sc' --event $e >/dev/null 2>&1")
		awk -v e="$e" -v t="$t" -v p="$p" 'BEGIN {
			printf "stackcollapse-jfr (recordings): %s: jfr print | stackcollapse-jfr %.3f s; %.1fx as fast (target >= 20)\n",
			    e, p, (t > 0 ? p / t : 0) }'
	else
		echo "stackcollapse-jfr (recordings): jfr is not installed: the pipeline is not timed"
	fi
done
