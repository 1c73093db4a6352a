# JFR names Java methods dotted (demo.Workload.fib): green as slashed ones
# are (a red channel of 50 to 110), not red as C frames
flamegraph-svg --no-javascript --colors java ../stackcollapse-jfr/cpu-stdin.out | grep -o "fill=\"rgb([0-9]*" | sort | uniq -c | sort -rn | head -n 3
