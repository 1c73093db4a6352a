folddiff --fail-if 'self>+1pp' nonexistent.folded slow.folded
