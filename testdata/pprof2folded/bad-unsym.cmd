pprof2folded bad/unsym.pb
