pprof2folded --tag-root tenant bad/good.pb
