stackcollapse-perf --tid captures/tracepoint.perf.gz
