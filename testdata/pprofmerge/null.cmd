printf '%s\0' ../pprof2folded/node-wall.pb.gz ../pprof2folded/node-wall.pb.gz | pprofmerge -0 --files-from - | pprof2folded
