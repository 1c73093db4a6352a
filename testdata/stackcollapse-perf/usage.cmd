stackcollapse-perf --no-such-option
