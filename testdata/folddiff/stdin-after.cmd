folddiff base-1.folded - < slow.folded
