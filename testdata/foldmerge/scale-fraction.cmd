foldmerge --scale 0.5 dd.folded
