pprofmerge --max-size 100 ../pprof2folded/heap.pb.gz
