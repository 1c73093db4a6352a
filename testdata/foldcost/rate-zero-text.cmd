foldcost --window 1h --rate 0 --format text fleet.folded
