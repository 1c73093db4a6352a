foldmerge --normalize 1 max.folded max.folded
