svg2folded flamegraph-pl.svg inferno.svg
