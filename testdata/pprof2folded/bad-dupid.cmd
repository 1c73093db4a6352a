pprof2folded bad/dupid.pb
