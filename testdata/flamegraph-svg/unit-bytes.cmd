# bytes, scaled in powers of 1024
pprof2folded ../pprof2folded/heap.pb.gz | flamegraph-svg | grep -o '<title>[^<]*</title>' | head -3
