pprof2folded --lines cpu.pb.gz
