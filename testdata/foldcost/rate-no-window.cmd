foldcost --rate 0.04 fleet.folded
