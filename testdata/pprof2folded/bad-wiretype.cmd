pprof2folded bad/wiretype.pb
