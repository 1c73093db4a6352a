# the inputs of mixed.cmd, listed
printf '%s\n' ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-jfr/cpu.txt.gz ../pprof2folded/cpu.pb.gz |
	stackcollapse --samples --sample-index samples --files-from - 2>/dev/null | cmp - mixed.out && echo same
