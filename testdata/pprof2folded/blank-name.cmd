# a frame named ' ' (perf printed no symbol) from the vertx capture: the round trip is exact
t=$(mktemp) || exit 1
trap 'rm -f "$t"' EXIT
stackcollapse-perf --pid ../stackcollapse-perf/suite/perf-vertx-stacks-01.txt.gz 2>/dev/null >"$t" && folded2pprof "$t" | pprof2folded | cmp - "$t" && grep -c 'write0;  ' "$t"
