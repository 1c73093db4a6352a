flamegraph-svg --help
