folddiff --report --top 3 --fail-if 'self>+1pp' --format text base-1.samples.folded empty.folded
