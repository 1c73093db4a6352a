# heap bytes in KiB and MiB; markdown is read too
pprof2folded ../pprof2folded/heap.pb.gz | foldtop --format markdown --top 5
