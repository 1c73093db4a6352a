pprof2folded --files-from /dev/null
