folddiff --report --top 3 --fail-if 'self>+1pp' --format github empty.folded /dev/null
