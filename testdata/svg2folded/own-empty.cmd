svg2folded ../flamegraph-svg/empty.out
