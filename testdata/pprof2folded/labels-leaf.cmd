pprof2folded --tag-leaf tenant labels.pb.gz
