{ pprofmerge ../pprof2folded/cpu.pb.gz no-such.pb.gz; echo "exit $?" >&2; } | pprof2folded
