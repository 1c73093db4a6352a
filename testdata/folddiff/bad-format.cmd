folddiff --report --format html base-1.folded slow.folded
