foldcost --unit s --window 1h --by function --format markdown hostile.folded
