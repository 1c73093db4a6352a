folddiff --report --format github --weight 1 --fail-if 'self>+1pp' --floor 0 hostile-before.folded hostile-after.folded
