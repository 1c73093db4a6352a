foldcost --strict --by team --owners owners.tsv fleet.folded
