foldtop --format tsv recursive.folded
