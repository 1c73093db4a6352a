folddiff --report --top 6 base-1.folded base-2.folded
