folddiff --fail-if 'self > +1pp' base-2.folded slow.folded
