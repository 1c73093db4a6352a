stackcollapse-perf --context captures/cpp-srcline.perf.gz
