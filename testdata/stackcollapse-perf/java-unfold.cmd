stackcollapse-perf captures/java-unfold.perf.gz
