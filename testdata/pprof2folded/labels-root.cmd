pprof2folded --tag-root endpoint,tenant labels.pb.gz
