foldmerge --root-from-path '^fleet/(\w+)/' fleet/*/cpu.folded | foldcost --strict --by team --owners owners.tsv
