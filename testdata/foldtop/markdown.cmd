foldtop --format markdown --top 5 capture.folded
