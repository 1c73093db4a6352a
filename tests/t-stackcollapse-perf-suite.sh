#!/usr/bin/env bash
# stackcollapse-perf against the reference suite: 13 captures x 6 option
# sets, each output compared byte for byte with what stackcollapse-perf.pl
# printed, but for our unit line (folded(5)): it has none.
# usage: tests/t-stackcollapse-perf-suite.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
cd "$top/testdata/stackcollapse-perf/suite" || exit 2
for opt in pid tid kernel jit all addrs; do
	for in in *.txt.gz; do
		name=${in%.txt.gz}
		gzip -dc "results/$name-collapsed-$opt.txt.gz" >"$tmp/want"
		capture "$b/stackcollapse-perf" --"$opt" "$in"
		grep -v '^# unit=' "$tmp/out" >"$tmp/ours"
		judge "suite $name --$opt" 0 "" &&
		    compare "suite $name --$opt" "$tmp/want" "$tmp/ours"
	done
done
