# totals 300,000 times apart (periods before, samples after): the graph is
# coloured by the change of each frame's self share, as the table measures it
folddiff --report --format html --top 5 --color-by self --weight 333444,1 base-1.folded slow.samples.folded
