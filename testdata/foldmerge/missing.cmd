foldmerge nonexistent.folded dd.folded
