stackcollapse-perf captures/java-jit.perf.gz
