stackcollapse-perf --event-filter=cycles captures/two-events.perf.gz
