flamegraph-svg --pretty-xml --no-javascript diff.folded
