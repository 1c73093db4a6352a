pprof2folded --tag-focus tenant labels.pb.gz
