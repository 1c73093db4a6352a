# the exact count with its symbol, then as people read it
pprof2folded ../pprof2folded/cpu.pb.gz | flamegraph-svg | grep -o '<title>[^<]*</title>' | head -4
# --countname names the unit as given, unscaled
pprof2folded ../pprof2folded/cpu.pb.gz | flamegraph-svg --countname nanoseconds | grep -o '<title>[^<]*</title>' | head -2
