pprof2folded --strict bad/negative.pb
