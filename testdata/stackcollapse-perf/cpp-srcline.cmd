stackcollapse-perf --srcline captures/cpp-srcline.perf.gz
