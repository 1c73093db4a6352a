flamegraph-svg --frobnicate small.folded
