printf "a;b 1\nbad\n" | flamegraph-svg --strict
