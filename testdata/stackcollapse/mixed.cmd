# a perf capture, a JFR recording and a Go pprof profile, merged: each
# counts samples (perf --samples, the pprof profile its samples/count type)
stackcollapse --samples --sample-index samples ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-jfr/cpu.txt.gz ../pprof2folded/cpu.pb.gz
