pprof2folded bad/length.pb
