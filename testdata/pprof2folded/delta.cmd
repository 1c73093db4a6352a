pprof2folded delta.pb.gz
