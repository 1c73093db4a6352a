flamegraph-svg --no-javascript < small.folded
