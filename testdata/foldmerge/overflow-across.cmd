foldmerge max.folded max.folded
