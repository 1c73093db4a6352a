foldcost --window 1y fleet.folded
