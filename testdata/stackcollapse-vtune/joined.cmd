# reports joined: the header starts each anew, counts add up
stackcollapse-vtune vtune.csv | awk '{ s += $NF } END { print NR, s }'
cat vtune.csv vtune.csv | stackcollapse-vtune | awk '{ s += $NF } END { print NR, s }'
