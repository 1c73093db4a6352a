folddiff --strip-hex hex-a.folded hex-b.folded
