# three jobs decode, the merge keeps the order named: a bad profile's
# message in its place, the others merged (t-pprofmerge.sh checks every
# golden with 1, 2 and 7 jobs byte for byte)
pprofmerge --jobs 3 ../pprof2folded/cpu.pb.gz ../pprof2folded/bad/noloc.pb ../pprof2folded/labels.pb.gz ../pprof2folded/cpu.pb.gz 2>&1 >/dev/null
pprofmerge --jobs 3 ../pprof2folded/cpu.pb.gz ../pprof2folded/bad/noloc.pb ../pprof2folded/labels.pb.gz ../pprof2folded/cpu.pb.gz 2>/dev/null | pprof2folded | head -n 4
