pprof2folded --list heap.pb.gz
