flamegraph-svg --flamechart --no-javascript --pretty-xml chart.folded
