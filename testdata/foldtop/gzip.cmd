gzip -c recursive.folded | foldtop --top 2 -
