# the unit line is kept through the steps
pprof2folded ../pprof2folded/cpu.pb.gz | foldfilter --focus main.step
