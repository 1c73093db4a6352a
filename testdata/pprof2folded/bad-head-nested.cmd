pprof2folded bad/head-nested.pb
