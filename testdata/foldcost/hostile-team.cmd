foldcost --unit s --window 1h --by team --owners hostile-owners.tsv hostile.folded
