foldmerge --root-from-path '^fleet/(\w+)/' fleet/*/cpu.folded | foldcost --by team --owners owners.tsv --window 30s --rate 0.04
