pprof2folded nosuch.pb.gz cpu.pb.gz
