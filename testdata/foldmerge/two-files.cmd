foldmerge rust.folded java.folded
