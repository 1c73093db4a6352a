stackcollapse-perf captures/cpp-srcline.perf.gz
