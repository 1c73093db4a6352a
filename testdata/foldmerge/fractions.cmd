foldmerge fractions.folded fractions.folded
