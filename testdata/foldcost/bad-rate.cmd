foldcost --window 1h --rate 1e-3 fleet.folded
