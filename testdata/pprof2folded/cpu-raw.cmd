pprof2folded cpu.pb
