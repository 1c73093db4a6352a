flamegraph-svg --hash --no-javascript small.folded | grep -o "fill=\"rgb[^\"]*\""
