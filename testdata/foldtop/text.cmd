foldtop capture.folded
