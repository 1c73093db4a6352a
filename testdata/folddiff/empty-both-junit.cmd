folddiff --report --top 3 --fail-if 'self>+1pp' --format junit empty.folded /dev/null
