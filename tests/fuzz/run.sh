#!/usr/bin/env bash
# Runs fuzz targets. usage: tests/fuzz/run.sh BUILDDIR SECONDS TARGET...
#
# Each fuzz-NAME runs for SECONDS on its corpus BUILDDIR/corpus/NAME,
# started from tests/fuzz/seeds/NAME (read only) with tests/fuzz/NAME.dict
# when there is one. Findings go to BUILDDIR/crashes/NAME/ (add the
# minimized input to tests/fuzz/regress/NAME/ with the fix), the log to
# BUILDDIR/logs/NAME.log. Prints one line per target: executions, coverage
# (edges), corpus size and findings. FUZZ_MAX_LEN caps input size
# (default 8192; tests/fuzz/NAME.max_len for a target of large inputs),
# FUZZ_FLAGS adds libFuzzer flags, FUZZ_OUT puts corpus,
# crashes and logs elsewhere than BUILDDIR. Exits 1 on a finding.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: tests/fuzz/run.sh BUILDDIR SECONDS TARGET..." >&2; exit 2; }
b=$1 secs=$2
shift 2
cd "$top" || exit 2
o=${FUZZ_OUT:-$b}
status=0
for t in "$@"; do
	name=${t#fuzz-}
	bin=$b/tests/fuzz/$t
	[ -x "$bin" ] || { echo "$t: not built ($bin)"; status=1; continue; }
	mkdir -p "$o/corpus/$name" "$o/crashes/$name" "$o/logs"
	seeds=
	[ -d "tests/fuzz/seeds/$name" ] && seeds=tests/fuzz/seeds/$name
	dict=
	[ -e "tests/fuzz/$name.dict" ] && dict=-dict=tests/fuzz/$name.dict
	log=$o/logs/$name.log
	# a target whose inputs are large says how large in NAME.max_len
	max=${FUZZ_MAX_LEN:-8192}
	[ -e "tests/fuzz/$name.max_len" ] && max=$(cat "tests/fuzz/$name.max_len")
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -max_len="$max" \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$o/crashes/$name/" $dict ${FUZZ_FLAGS:-} \
	    "$o/corpus/$name" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	found=$(find "$o/crashes/$name" -type f | wc -l)
	echo "$t: ${execs:-0} executions, ${cov:-0} edges," \
	    "$(find "$o/corpus/$name" -type f | wc -l) corpus inputs, $found findings"
	if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
		status=1
		grep -m 3 -E 'ERROR|property failed|SUMMARY' "$log" | sed 's/^/#   /'
	fi
done
exit $status
