folddiff - slow.folded < base-1.folded
