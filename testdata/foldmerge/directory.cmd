foldmerge . dd.folded
