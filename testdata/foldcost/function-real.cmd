foldmerge --root-from-path '^fleet/(\w+)/' fleet/*/cpu.folded | foldcost --by function --top 5 --fleet-cores 64 --format json
