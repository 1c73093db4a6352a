stackcollapse-perf ../stackcollapse-perf/captures/go.perf.gz | folded2speedscope --name go
