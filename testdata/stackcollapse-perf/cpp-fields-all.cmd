stackcollapse-perf --pid captures/cpp-fields-all.perf.gz
