foldmerge - < java.folded
