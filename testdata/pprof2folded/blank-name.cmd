# a frame named ' ' (perf printed no symbol) from the vertx capture: the round trip is exact
stackcollapse-perf --pid ../stackcollapse-perf/suite/perf-vertx-stacks-01.txt.gz 2>/dev/null > a.tmp && folded2pprof a.tmp | pprof2folded | cmp - a.tmp && grep -c 'write0;  ' a.tmp; rm -f a.tmp
