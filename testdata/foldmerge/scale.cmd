foldmerge --scale 3 dd.folded
