stackcollapse-perf --jit captures/node-jit.perf.gz
