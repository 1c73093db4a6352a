stackcollapse-perf period-bounds.perf
