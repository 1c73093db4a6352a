# a frame named ' ' (perf printed no symbol) from the vertx capture keeps its name
stackcollapse-perf --pid ../stackcollapse-perf/suite/perf-vertx-stacks-01.txt.gz 2>/dev/null | foldfilter --replace '^ $' '[blank]' | grep -o 'write0;\[blank\].*'
