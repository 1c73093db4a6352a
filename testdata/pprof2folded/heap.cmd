pprof2folded heap.pb.gz
