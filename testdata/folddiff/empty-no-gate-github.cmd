folddiff --report --top 3 --format github base-1.samples.folded - < empty.folded
