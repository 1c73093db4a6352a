pprof2folded --list node-heap.pb.gz && pprof2folded node-heap.pb.gz
