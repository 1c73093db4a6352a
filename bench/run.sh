#!/usr/bin/env bash
# make bench: runs every benchmark script with the build directory.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${1:-build}" && pwd)
export BENCH_DIR=$top/bench
export BENCH_TMP=${BENCH_TMP:-$(mktemp -d)}
trap 'rm -rf "$BENCH_TMP"' EXIT
cd "$top" || exit 2
for s in bench/*.sh; do
	case $s in bench/run.sh|bench/lib.sh) continue ;; esac
	echo "== $s"
	bash "$s" "$b"
done
