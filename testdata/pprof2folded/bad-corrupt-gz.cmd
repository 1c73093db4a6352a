pprof2folded bad/corrupt.pb.gz
