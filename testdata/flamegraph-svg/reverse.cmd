flamegraph-svg --reverse --no-javascript small.folded | grep -o "<title>[^<]*</title>"
