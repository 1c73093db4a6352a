pprof2folded bad/sparse.pb
