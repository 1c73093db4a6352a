pprof2folded --max-size 1M bad/deep.pb
