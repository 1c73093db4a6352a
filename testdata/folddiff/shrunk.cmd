folddiff shrunk-before.folded shrunk-after.folded
