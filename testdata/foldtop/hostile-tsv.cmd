foldtop --format tsv hostile.folded
