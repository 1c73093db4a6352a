# reports joined: each tree is read, counts add up
cat ticks.prof utf8.prof ticks.prof | stackcollapse-ghcprof --ticks | awk '{ s += $NF } END { print NR, s }'
