folddiff --units-before 10 base-1.folded slow.folded
