folddiff --alpha 0.000000001 --fail-if 'self>+1pp' base-1.folded slow.folded
