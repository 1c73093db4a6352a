pprof2folded bad/trunc.pb.gz
