folddiff --report --top 4 --weight 333444,1 base-1.folded slow.samples.folded
