# a time unit is read from the profile (no --unit needed)
pprof2folded ../pprof2folded/cpu.pb.gz | foldcost --window 1s
# bytes are no time
pprof2folded ../pprof2folded/heap.pb.gz | foldcost --window 1s
