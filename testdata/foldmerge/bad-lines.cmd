foldmerge bad-lines.folded
