pprof2folded --differential --lines delta.pb.gz
