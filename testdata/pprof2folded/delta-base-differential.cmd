pprof2folded --differential delta-base.pb.gz
