stackcollapse-perf --addrs captures/cpp-fields-nodso.perf.gz
