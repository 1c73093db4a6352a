pprof2folded --sample-index 4 heap.pb.gz
