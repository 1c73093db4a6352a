sed "s/(12,000 samples/(12x samples/" flamegraph-pl.svg | svg2folded --strict
