foldmerge --strict bad-lines.folded
