pprof2folded cpu.pb.gz heap.pb.gz
