folddiff --report --format junit --fail-if 'self>+1pp' --fail-if 'total>+10%' base-1.folded base-2.folded
