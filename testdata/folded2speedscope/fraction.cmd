folded2speedscope < fraction.folded
