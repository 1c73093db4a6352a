folddiff --report --format tsv --top 6 base-1.folded slow.folded
