{ pprofmerge ../pprof2folded/cpu.pb.gz ../pprof2folded/heap.pb.gz; echo "exit $?" >&2; } | pprof2folded
