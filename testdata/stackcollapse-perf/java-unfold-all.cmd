stackcollapse-perf --all captures/java-unfold.perf.gz
