svg2folded --countname bytes ../flamegraph-svg/labels.out
