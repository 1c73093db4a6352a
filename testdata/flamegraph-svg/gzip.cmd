flamegraph-svg example.folded.gz | grep -c "<g>"
