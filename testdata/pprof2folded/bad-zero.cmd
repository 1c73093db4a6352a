timeout 10 pprof2folded /dev/zero
