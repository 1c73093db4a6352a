stackcollapse-perf --tid captures/java-unfold.perf.gz
