foldcost --unit samples samples.folded
