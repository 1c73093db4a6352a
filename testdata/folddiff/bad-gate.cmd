folddiff --fail-if 'cpu>1pp' base-1.folded slow.folded
