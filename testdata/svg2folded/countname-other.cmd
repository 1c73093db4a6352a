svg2folded --countname bytes flamegraph-pl-us.svg
