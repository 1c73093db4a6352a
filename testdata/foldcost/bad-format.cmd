foldcost --format xml fleet.folded
