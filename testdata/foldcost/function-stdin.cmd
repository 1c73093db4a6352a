foldcost --window 1h --rate 0.04 --by function < fleet.folded
