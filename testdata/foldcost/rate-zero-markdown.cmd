foldcost --window 1h --rate 0 --format markdown fleet.folded
