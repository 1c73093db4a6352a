foldmerge --min-count 5 rust.folded
