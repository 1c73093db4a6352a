folddiff -n shrunk-before.folded shrunk-after.folded
