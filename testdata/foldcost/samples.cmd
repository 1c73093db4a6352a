foldcost --unit samples --hz 100 --window 2s --rate 0.5 samples.folded
