flamegraph-svg --no-javascript --colors java java.folded | grep -o "fill=\"rgb[^\"]*\"" | sort | uniq -c | sort -rn | head -n 5
