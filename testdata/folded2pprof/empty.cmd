folded2pprof </dev/null | pprof2folded
