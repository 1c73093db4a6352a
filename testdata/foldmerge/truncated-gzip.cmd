foldmerge truncated.gz
