stackcollapse-perf captures/cpp-flat.perf.gz
