folddiff --fail-if 'self<-1pp' slow.folded base-1.folded
