folddiff --report --top 6 --units-before 5000 --units-after 5000 base-1.folded slow.folded
