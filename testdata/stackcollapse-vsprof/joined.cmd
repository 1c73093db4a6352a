# reports joined: the header starts each anew, counts add up
stackcollapse-vsprof CallTreeSummary.csv | awk '{ s += $NF } END { print NR, s }'
cat CallTreeSummary.csv CallTreeSummary.csv | stackcollapse-vsprof | awk '{ s += $NF } END { print NR, s }'
