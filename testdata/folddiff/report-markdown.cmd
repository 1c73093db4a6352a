folddiff --report --format markdown --top 6 base-1.folded slow.folded
