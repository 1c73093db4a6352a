svg2folded ../flamegraph-svg/diff.out
