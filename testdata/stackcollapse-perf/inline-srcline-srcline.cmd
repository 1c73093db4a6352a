stackcollapse-perf --srcline captures/inline-srcline.perf.gz
