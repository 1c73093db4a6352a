foldcost --unit s --window 1h --rate 0.04 --format markdown hostile.folded
