pprofmerge ../pprof2folded/cpu.pb.gz ../pprof2folded/labels.pb.gz | pprof2folded --tag-root endpoint
