gzip -c flamegraph-pl.svg | head -c 900 | svg2folded
