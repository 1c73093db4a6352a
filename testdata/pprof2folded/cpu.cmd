pprof2folded cpu.pb.gz
