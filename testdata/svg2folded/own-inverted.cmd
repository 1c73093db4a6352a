svg2folded ../flamegraph-svg/inverted.out
