folded2pprof in.folded in.folded | pprof2folded
