folddiff -s hex-a.folded hex-b.folded
