pprof2folded cpu.pb.gz labels.pb.gz
