pprof2folded --max-size 100K bad/amplify.pb
