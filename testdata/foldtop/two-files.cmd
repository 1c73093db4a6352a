foldtop capture.folded recursive.folded
