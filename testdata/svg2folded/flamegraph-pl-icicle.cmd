svg2folded flamegraph-pl-icicle.svg
