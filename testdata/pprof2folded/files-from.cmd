pprof2folded -0 --files-from files-from.list0
