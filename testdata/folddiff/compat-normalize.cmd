folddiff -n base-1.samples.folded slow.samples.folded
