pprof2folded bad/head-sample-wt.pb
