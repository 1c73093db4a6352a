pprof2folded bad/nested.pb
