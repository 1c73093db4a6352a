folddiff --floor 0% --fail-if 'total>+50%' base-1.folded base-2.folded
