foldcost --unit s --window 1s --rate 999999999.999999999 max.folded
