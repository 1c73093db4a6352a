head -c 2000 flamegraph-pl.svg | svg2folded
