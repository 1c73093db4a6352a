flamegraph-svg --no-javascript nonexistent.folded small.folded | grep -c "<g>"
