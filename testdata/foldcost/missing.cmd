foldcost fleet.folded no-such.folded
