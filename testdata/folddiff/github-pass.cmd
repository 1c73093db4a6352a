folddiff --report --format github base-2.folded < base-1.folded -
