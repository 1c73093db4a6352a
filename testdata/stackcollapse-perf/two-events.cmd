stackcollapse-perf captures/two-events.perf.gz
