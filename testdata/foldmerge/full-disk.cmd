foldmerge dd.folded > /dev/full
