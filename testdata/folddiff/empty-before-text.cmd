folddiff --report --top 3 --fail-if 'self>+1pp' --format text empty.folded base-1.samples.folded
