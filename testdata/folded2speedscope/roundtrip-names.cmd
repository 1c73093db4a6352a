folded2speedscope names.folded | stackcollapse-speedscope
