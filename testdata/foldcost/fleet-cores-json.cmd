foldcost --fleet-cores 12000 --rate 0.04 --format json --top 1 fleet.folded
