pprof2folded bad/head-sample-zero.pb
