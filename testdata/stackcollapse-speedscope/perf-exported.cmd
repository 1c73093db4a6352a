stackcollapse-speedscope perf-exported.speedscope.json
