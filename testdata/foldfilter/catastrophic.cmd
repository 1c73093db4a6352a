awk 'BEGIN { s = "x;"; for (i = 0; i < 5000; i++) s = s "a"; print s "b 1" }' | foldfilter --grep '^(a+)+$'
