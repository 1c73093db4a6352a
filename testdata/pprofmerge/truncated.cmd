{ pprofmerge ../pprof2folded/bad/length.pb ../pprof2folded/bad/corrupt.pb.gz ../pprof2folded/cpu.pb.gz; echo "exit $?" >&2; } | pprof2folded --list
