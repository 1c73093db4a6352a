foldmerge overflow.folded
