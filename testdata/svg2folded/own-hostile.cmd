svg2folded ../flamegraph-svg/hostile.out | cut -c 1-80
