flamegraph-svg --width -5 small.folded
