pprof2folded goroutine.pb.gz
