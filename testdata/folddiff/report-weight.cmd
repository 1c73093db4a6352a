folddiff --report --top 4 --weight 333444 base-1.folded slow.folded
