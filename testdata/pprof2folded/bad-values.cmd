pprof2folded bad/values.pb
