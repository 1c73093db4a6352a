folddiff --report --format html --top 5 --fail-if 'self>+1pp' --fail-if 'total>+10%' base-1.folded slow.folded
