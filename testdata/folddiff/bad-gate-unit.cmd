folddiff --fail-if 'self>+1' base-1.folded slow.folded
