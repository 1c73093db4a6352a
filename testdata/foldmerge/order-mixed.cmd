sort -r order.folded | foldmerge - order.folded
