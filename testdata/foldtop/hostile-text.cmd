foldtop --format text hostile.folded
