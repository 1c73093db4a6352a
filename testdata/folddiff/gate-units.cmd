folddiff --units-before 5000 --units-after 5000 --fail-if 'self>+10%' --fail-if 'total>+0.1' base-1.samples.folded slow.samples.folded
