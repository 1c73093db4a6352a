foldcost fraction.folded
