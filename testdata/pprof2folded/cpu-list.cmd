pprof2folded --list cpu.pb.gz
