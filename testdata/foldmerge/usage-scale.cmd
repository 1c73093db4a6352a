foldmerge --scale 1e3 dd.folded
