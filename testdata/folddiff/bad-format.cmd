folddiff --report --format pdf base-1.folded slow.folded
