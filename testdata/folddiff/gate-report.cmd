folddiff --report --format markdown --top 3 --fail-if 'total>+10%' base-1.folded slow.folded
