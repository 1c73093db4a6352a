stackcollapse-perf no-such-file captures/tracepoint.perf.gz
