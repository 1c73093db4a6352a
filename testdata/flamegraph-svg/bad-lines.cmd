printf "a;b 1\nno count here\na;c x\n\na;d 2\n" | flamegraph-svg --no-javascript | grep -o "<title>[^<]*</title>"
