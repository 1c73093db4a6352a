# the sample type follows the unit: the unit survives a round trip
for p in cpu heap goroutine; do
	pprof2folded ../pprof2folded/$p.pb.gz > $p.$$.folded
	folded2pprof $p.$$.folded | pprof2folded --list
	folded2pprof $p.$$.folded | pprof2folded | cmp - $p.$$.folded && echo "$p: the same"
	rm -f $p.$$.folded
done
