svg2folded ../flamegraph-svg/flamechart.out
