foldcost --window 1h --rate 1 < /dev/null
