: | foldcost --files-from -
