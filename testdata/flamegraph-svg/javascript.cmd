flamegraph-svg small.folded | grep -c -e "<script" -e "id=\"fg[0-9a-f]*-search\"" -e "id=\"fg[0-9a-f]*-details\""
