svg2folded flamegraph-pl.svg
