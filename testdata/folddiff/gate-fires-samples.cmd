folddiff --fail-if 'self>+1pp' base-1.samples.folded slow.samples.folded
