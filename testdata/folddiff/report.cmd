folddiff --report base-1.folded slow.folded
