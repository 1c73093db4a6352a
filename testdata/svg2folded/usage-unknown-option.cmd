svg2folded --frobnicate flamegraph-pl.svg
