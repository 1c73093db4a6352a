stackcollapse-dtrace --includeoffset flamegraph-bug.txt
