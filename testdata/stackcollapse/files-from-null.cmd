printf '%s\0' ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-jfr/cpu.txt.gz |
	stackcollapse --samples --sample-index samples -0 --files-from - ../pprof2folded/cpu.pb.gz 2>/dev/null | cmp - mixed.out && echo same
