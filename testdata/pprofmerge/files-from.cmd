printf '%s\n' ../pprof2folded/cpu.pb.gz ../pprof2folded/merged.pb.gz | pprofmerge --files-from - | pprof2folded --list
