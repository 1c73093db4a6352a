pprof2folded <bad/good.pb
