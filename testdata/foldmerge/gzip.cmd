foldmerge dd.folded.gz
