pprof2folded --differential bad/negative.pb
