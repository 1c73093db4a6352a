pprof2folded --sample-index alloc_objects --tag-leaf bytes heap.pb.gz
