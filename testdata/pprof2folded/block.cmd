pprof2folded block.pb.gz
