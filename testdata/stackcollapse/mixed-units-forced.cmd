# --unit says how: added as they are, counted in the unit it names
stackcollapse --samples --unit samples ../stackcollapse-perf/captures/go.perf.gz ../pprof2folded/cpu.pb.gz |
	grep -c .
