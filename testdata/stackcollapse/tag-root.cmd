stackcollapse --tag-root tenant ../pprof2folded/labels.pb.gz
