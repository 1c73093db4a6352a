folddiff - - < base-1.folded
