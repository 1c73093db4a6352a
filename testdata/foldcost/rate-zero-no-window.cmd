foldcost --rate 0 fleet.folded
