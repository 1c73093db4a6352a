# two profiles of nanoseconds: the unit line stays
pprof2folded ../pprof2folded/cpu.pb.gz > cpu.$$.folded
pprof2folded ../pprof2folded/mutex.pb.gz | foldmerge cpu.$$.folded - | head -3
# samples and nanoseconds do not add up
printf 'x 1\n' | foldmerge cpu.$$.folded -; echo "status $?"
# unless --unit names the sum's
printf 'x 1\n' | foldmerge --unit samples cpu.$$.folded - | head -2
rm -f cpu.$$.folded
