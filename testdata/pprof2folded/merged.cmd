pprof2folded merged.pb.gz
