svg2folded nonexistent.svg flamegraph-pl.svg
