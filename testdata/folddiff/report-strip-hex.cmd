folddiff --report -s --weight 1 hex-a.folded hex-b.folded
