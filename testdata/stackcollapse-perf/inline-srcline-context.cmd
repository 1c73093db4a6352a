stackcollapse-perf --context captures/inline-srcline.perf.gz
