stackcollapse-perf --all captures/go.perf.gz
