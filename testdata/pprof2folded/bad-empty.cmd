pprof2folded bad/empty.pb
