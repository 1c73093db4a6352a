foldtop --top 5 capture.folded
