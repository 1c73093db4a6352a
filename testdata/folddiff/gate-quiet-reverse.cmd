folddiff --fail-if 'self>+1pp' --fail-if 'total>+10%' base-2.folded base-1.folded
