{ pprofmerge ../pprof2folded/bad/noloc.pb ../pprof2folded/cpu.pb.gz; echo "exit $?" >&2; } | pprof2folded --list
