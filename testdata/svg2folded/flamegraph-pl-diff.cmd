svg2folded flamegraph-pl-diff.svg
