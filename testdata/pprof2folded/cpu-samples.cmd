pprof2folded --sample-index samples cpu.pb.gz
