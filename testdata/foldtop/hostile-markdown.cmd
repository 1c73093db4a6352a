foldtop --format markdown hostile.folded
