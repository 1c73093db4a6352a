gzip -dc captures/cpp-default.perf.gz | stackcollapse-perf --tid
