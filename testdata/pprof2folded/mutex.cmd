pprof2folded mutex.pb.gz
