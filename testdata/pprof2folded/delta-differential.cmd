pprof2folded --differential delta.pb.gz
