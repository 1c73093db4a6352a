# the same, coloured by the change of each frame's total share:
# process_request, which calls checksum, is red too (+0.92pp), white by self
folddiff --report --format html --top 5 --color-by total --weight 333444,1 base-1.folded slow.samples.folded
