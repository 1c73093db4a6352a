folddiff --normalize base-1.folded slow.folded
