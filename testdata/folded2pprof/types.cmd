folded2pprof --sample-type cpu/nanoseconds --period 10000000 in.folded | pprof2folded --list
