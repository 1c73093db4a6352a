svg2folded ../flamegraph-svg/nameattr.out
