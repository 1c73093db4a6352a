# a count of goroutines: named in the caption, counts as they are
pprof2folded ../pprof2folded/goroutine.pb.gz | foldtop --top 3
