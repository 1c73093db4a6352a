folddiff --units-before 1 --units-after 2 --fail-if 'self>+1pp' base-1.folded slow.folded
