foldtop nonexistent.folded
