pprof2folded --max-size 1X cpu.pb.gz
