# a Go CPU profile's nanoseconds, shown as pprof -top shows them
pprof2folded ../pprof2folded/cpu.pb.gz | foldtop
