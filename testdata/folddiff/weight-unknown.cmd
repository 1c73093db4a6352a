folddiff --report varying-a.folded varying-b.folded
