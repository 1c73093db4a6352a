pprof2folded bad/nostack.pb
