svg2folded ../flamegraph-svg/small.folded
