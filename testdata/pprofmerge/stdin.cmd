pprofmerge < ../pprof2folded/heap.pb.gz | pprof2folded --list
