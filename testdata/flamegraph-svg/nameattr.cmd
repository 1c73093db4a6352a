flamegraph-svg --nameattr nameattr.txt --no-javascript --pretty-xml small.folded
