foldmerge --normalize 100 dd.folded fractions.folded
