foldtop --format html capture.folded
