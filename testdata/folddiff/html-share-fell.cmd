# parse_input and hash_table have more samples after (tsv: the counts rose)
# but a smaller share of them: the report's graph paints them blue and says
# how many points they fell, where a change in counts would paint them red
folddiff --report --format tsv base-1.samples.folded slow.samples.folded | grep -e '^function' -e '^parse_input' -e '^hash_table'
folddiff --report --format html base-1.samples.folded slow.samples.folded | grep -o -e '<title>parse_input [^<]*</title><rect [^>]*>' -e '<title>hash_table [^<]*</title><rect [^>]*>'
