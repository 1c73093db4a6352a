flamegraph-svg --minwidth 10% --no-javascript small.folded | grep -o "<title>[^<]*</title>"
