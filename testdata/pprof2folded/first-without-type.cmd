pprof2folded --sample-index alloc_space cpu.pb.gz heap.pb.gz
