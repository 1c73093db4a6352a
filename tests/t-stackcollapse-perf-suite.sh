#!/usr/bin/env bash
# stackcollapse-perf against the reference suite: 13 captures x 6 option
# sets, each output compared byte for byte with what stackcollapse-perf.pl
# printed. usage: tests/t-stackcollapse-perf-suite.sh BUILDDIR
set -u
b=$(cd "${1:?usage: $0 BUILDDIR}" && pwd) || exit 2
cd "$(dirname "$0")/../testdata/stackcollapse-perf/suite" || exit 2
export LC_ALL=C
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for opt in pid tid kernel jit all addrs; do
	for in in *.txt.gz; do
		name=${in%.txt.gz}
		want=results/$name-collapsed-$opt.txt.gz
		"$b/stackcollapse-perf" --"$opt" "$in" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		gzip -dc "$want" >"$tmp/want"
		if [ "$rc" -ne 0 ]; then
			echo "FAIL suite $name --$opt (exit status $rc)"
			sed 's/^/# /' "$tmp/err" | head -n 5
		elif ! cmp -s "$tmp/want" "$tmp/out"; then
			echo "FAIL suite $name --$opt"
			diff -u "$tmp/want" "$tmp/out" | head -n 20 | sed 's/^/# /'
		else
			echo "ok suite $name --$opt"
		fi
	done
done
