folded2speedscope time.folded | stackcollapse-speedscope
