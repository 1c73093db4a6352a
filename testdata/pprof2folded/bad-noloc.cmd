pprof2folded bad/noloc.pb
