pprof2folded bad/strindex.pb
