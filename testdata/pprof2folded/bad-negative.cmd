pprof2folded bad/negative.pb
