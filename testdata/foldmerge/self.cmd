foldmerge rust.folded rust.folded
