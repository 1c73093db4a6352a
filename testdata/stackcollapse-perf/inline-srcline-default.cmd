stackcollapse-perf captures/inline-srcline.perf.gz
