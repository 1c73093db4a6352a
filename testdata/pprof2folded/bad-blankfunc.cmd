# a function named "": the frame "" where its location has no address, the address where it has one, the second time too
pprof2folded bad/blankfunc.pb bad/blankfunc.pb
