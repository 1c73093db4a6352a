# tsv is parsed: the exact counts
pprof2folded ../pprof2folded/heap.pb.gz | foldtop --format tsv --top 3
