printf '%s\n' fleet.folded | foldcost --files-from - --fleet-cores 12000 --rate 0.04
