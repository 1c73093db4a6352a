stackcollapse-perf suite/perf-dd-stacks-01.txt.gz
