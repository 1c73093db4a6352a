folddiff --report --top 6 base-1.samples.folded slow.samples.folded
