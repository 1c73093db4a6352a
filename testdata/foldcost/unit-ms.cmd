foldcost --unit ms --window 1m --top 1 - < samples.folded
