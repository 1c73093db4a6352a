pprof2folded --sample-index 0 - <cpu.pb
