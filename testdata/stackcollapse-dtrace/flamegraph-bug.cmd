stackcollapse-dtrace flamegraph-bug.txt
