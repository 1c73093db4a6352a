flamegraph-svg --no-javascript --pretty-xml hostile.folded
