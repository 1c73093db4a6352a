stackcollapse-perf --inline captures/inline-srcline.perf.gz
