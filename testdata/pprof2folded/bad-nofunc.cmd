pprof2folded bad/nofunc.pb
