pprof2folded bad/text.pb
