svg2folded flamegraph-pl-2011.svg
