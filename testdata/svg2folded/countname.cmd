svg2folded --countname us flamegraph-pl-us.svg
