# a delta profile (negative values) is not added to other stacks without a word
stackcollapse ../pprof2folded/delta.pb.gz
