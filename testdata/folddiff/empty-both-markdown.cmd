folddiff --report --top 3 --fail-if 'self>+1pp' --format markdown empty.folded /dev/null
