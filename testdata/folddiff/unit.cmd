# the profiles must count the same unit
pprof2folded ../pprof2folded/cpu.pb.gz > cpu.$$.folded
printf 'x 1\n' | folddiff cpu.$$.folded -; echo "status $?"
# and the differential output carries it
pprof2folded ../pprof2folded/mutex.pb.gz | folddiff cpu.$$.folded - 2>/dev/null | head -2
rm -f cpu.$$.folded
