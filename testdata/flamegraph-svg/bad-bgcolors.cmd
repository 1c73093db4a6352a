flamegraph-svg --bgcolors "#12345" small.folded
