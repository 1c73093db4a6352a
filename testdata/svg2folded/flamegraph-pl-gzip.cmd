gzip -c flamegraph-pl.svg | svg2folded
