pprof2folded bad/head-field.pb
