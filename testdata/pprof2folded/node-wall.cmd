pprof2folded node-wall.pb.gz
