folded2pprof in.folded | pprof2folded
