foldmerge order.folded
