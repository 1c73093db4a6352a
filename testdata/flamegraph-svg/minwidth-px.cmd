flamegraph-svg --minwidth 100 --no-javascript small.folded | grep -o -e "<title>[^<]*</title>" -e "<svg [^>]*>"
