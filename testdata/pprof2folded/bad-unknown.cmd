pprof2folded bad/unknown.pb
