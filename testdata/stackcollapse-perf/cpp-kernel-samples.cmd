stackcollapse-perf --kernel --samples captures/cpp-default.perf.gz
