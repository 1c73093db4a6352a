svg2folded ../flamegraph-svg/basic.out
