# perf samples and Go CPU nanoseconds do not add up: the run stops
stackcollapse --samples ../stackcollapse-perf/captures/go.perf.gz ../pprof2folded/cpu.pb.gz
