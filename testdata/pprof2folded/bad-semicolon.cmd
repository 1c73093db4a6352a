pprof2folded bad/semicolon.pb bad/semicolon.pb
