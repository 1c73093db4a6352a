# a perf capture, a JFR recording and a Go pprof profile, merged
stackcollapse ../stackcollapse-perf/captures/go.perf.gz ../stackcollapse-jfr/cpu.txt.gz ../pprof2folded/cpu.pb.gz
