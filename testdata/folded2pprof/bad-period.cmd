folded2pprof --period -1 in.folded
