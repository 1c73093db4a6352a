flamegraph-svg --no-javascript --total 50 small.folded | grep -c "<g>"
