foldtop --cum --top 8 capture.folded
