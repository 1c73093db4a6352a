pprof2folded --sample-index nosuch heap.pb.gz
