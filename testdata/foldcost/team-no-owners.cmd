foldcost --by team fleet.folded
