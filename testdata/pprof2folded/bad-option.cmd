pprof2folded --nosuch cpu.pb.gz
