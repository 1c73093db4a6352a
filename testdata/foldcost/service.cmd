foldcost --window 1h --rate 0.04 fleet.folded
