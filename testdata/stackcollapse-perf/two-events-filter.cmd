stackcollapse-perf --event-filter=cpu-clock captures/two-events.perf.gz
