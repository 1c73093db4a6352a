foldtop < capture.folded
