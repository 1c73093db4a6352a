foldcost --window 1h --rate 0 --format tsv fleet.folded
