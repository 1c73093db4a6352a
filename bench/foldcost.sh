#!/usr/bin/env bash
# foldcost on a fleet profile of 300,000 stacks under 20 services (the
# synthetic profile with a service root frame each): --by service and
# --by function --total against awk summing by root frame on the same
# file, and peak memory (no target was set: the figures are recorded).
set -u
b=$1
. "$(dirname "$0")/lib.sh"
: "${BENCH_TMP:=$(mktemp -d)}" "${BENCH_DIR:=$(cd "$(dirname "$0")" && pwd)}"
f=$(synthetic 300000)
fleet=$BENCH_TMP/fleet.folded
awk '{ print "svc" (NR % 20) ";" $0 }' "$f" >"$fleet"
base=$(best_time awk '{ split($1, a, ";"); s[a[1]] += $NF }
    END { for (k in s) print k, s[k] }' "$fleet")
t=$(best_time "$b/foldcost" --window 1h --rate 0.04 "$fleet")
echo "awk sum by root: ${base}s  foldcost --by service: ${t}s ($(ratio "$t" "$base")x)"
t=$(best_time "$b/foldcost" --by function --total --top 20 "$fleet")
echo "foldcost --by function --total: ${t}s ($(ratio "$t" "$base")x awk by root)"
echo "foldcost --by service: peak $(peak_mb "$b/foldcost" --window 1h "$fleet") MB" \
    "for a $(($(wc -c <"$fleet") / 1000000)) MB profile"
