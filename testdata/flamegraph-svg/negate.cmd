flamegraph-svg --negate --no-javascript diff.folded | grep -o -e "<title>[^<]*</title>" -e "fill=\"rgb[^\"]*\""
