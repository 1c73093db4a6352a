stackcollapse-perf captures/cpp-header.perf.gz
