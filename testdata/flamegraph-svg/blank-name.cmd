# a frame named ' ' (perf printed no symbol) from the vertx capture keeps its name
stackcollapse-perf --pid ../stackcollapse-perf/suite/perf-vertx-stacks-01.txt.gz 2>/dev/null | grep 'write0;  ' | flamegraph-svg | grep -o '<title>[^<]*</title>' | tail -n 2
