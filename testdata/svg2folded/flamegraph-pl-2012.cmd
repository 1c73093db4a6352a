svg2folded flamegraph-pl-2012.svg
