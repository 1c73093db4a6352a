foldmerge --per 8 dd.folded
