pprof2folded --list bad/good.pb
