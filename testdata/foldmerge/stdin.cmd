foldmerge < rust.folded
