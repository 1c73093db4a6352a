pprof2folded --list delta.pb.gz
