#!/usr/bin/env bash
# Times stackcollapse-ghcprof against `grep -c '^$'` (one pass over every
# byte) on a 100 MB input made by repeating the largest real input of
# testdata/stackcollapse-ghcprof (ticks.prof), in the same run, and prints the
# ratio, the throughput (target: at least 500 MB/s) and the peak memory
# (target: at most 16 MB).
# usage: bench/stackcollapse-ghcprof.sh BUILDDIR [MB]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MB]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH_TMP=$(mktemp -d)
trap 'rm -rf "$BENCH_TMP"' EXIT
export LC_ALL=C RUNS=${RUNS:-3}
. "$top/bench/lib.sh"
bench_repeated stackcollapse-ghcprof "$top/testdata/stackcollapse-ghcprof/ticks.prof" "${2:-100}" --bytes
