folddiff --report --weight 100000 varying-a.folded varying-b.folded
