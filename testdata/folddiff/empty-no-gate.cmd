folddiff --report --top 3 base-1.samples.folded empty.folded
