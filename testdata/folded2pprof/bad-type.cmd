folded2pprof --sample-type cpu/ in.folded
