flamegraph-svg --colors rainbow small.folded
