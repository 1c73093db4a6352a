foldcost --window 1h --rate 0 --format json fleet.folded
