tail -n +3 flamegraph-bug.txt | stackcollapse-dtrace
