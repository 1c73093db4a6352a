pprof2folded --max-size 1M bad/bomb.pb.gz
