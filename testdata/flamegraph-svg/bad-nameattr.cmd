flamegraph-svg --nameattr bad-nameattr.txt small.folded
