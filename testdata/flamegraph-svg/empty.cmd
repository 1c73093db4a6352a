printf "" | flamegraph-svg
