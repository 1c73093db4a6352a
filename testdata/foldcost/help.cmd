foldcost --help
