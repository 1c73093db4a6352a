stackcollapse-perf captures/cpp-default.perf.gz
