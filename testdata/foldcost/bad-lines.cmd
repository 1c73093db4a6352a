foldcost bad-lines.folded
