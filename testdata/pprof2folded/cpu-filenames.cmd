pprof2folded --filenames --lines cpu.pb.gz
