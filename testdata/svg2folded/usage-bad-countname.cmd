svg2folded --countname "a, b" flamegraph-pl.svg
