stackcollapse-perf --samples period-bounds.perf
