stackcollapse-perf --list-events captures/two-events.perf.gz
