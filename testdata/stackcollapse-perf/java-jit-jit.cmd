stackcollapse-perf --jit captures/java-jit.perf.gz
