folded2pprof --sample-type wall - <in.folded | pprof2folded --list
