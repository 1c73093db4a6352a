foldtop recursive.folded
