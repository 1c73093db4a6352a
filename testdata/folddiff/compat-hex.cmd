folddiff hex-a.folded hex-b.folded
