foldcost --format tsv --window 7d fleet.folded
