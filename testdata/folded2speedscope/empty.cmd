folded2speedscope /dev/null
