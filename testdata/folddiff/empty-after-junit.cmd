folddiff --report --top 3 --fail-if 'self>+1pp' --format junit base-1.samples.folded empty.folded
