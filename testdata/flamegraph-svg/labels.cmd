flamegraph-svg --no-javascript --pretty-xml --title "CPU <profile> & more" --subtitle "run 2" --notes "made -- by hand" --countname bytes --nametype "Frame:" --factor 1000 --total 200 small.folded
