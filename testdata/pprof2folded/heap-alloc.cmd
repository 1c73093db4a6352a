pprof2folded --sample-index alloc_space heap.pb.gz
