stackcollapse-perf captures/inline.perf.gz
