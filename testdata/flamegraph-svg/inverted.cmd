flamegraph-svg --inverted --no-javascript --pretty-xml small.folded
