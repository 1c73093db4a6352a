flamegraph-svg --pretty-xml --no-javascript small.folded
