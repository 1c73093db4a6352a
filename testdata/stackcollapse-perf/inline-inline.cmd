stackcollapse-perf --inline captures/inline.perf.gz
