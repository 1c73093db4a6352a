# the same stacks as each format's own tool, merged by foldmerge
a=$(mktemp) b=$(mktemp) c=$(mktemp)
stackcollapse-perf --samples ../stackcollapse-perf/captures/go.perf.gz >"$a"
stackcollapse-jfr ../stackcollapse-jfr/cpu.txt.gz >"$b"
pprof2folded --sample-index samples ../pprof2folded/cpu.pb.gz >"$c"
foldmerge "$a" "$b" "$c" | cmp - mixed.out && echo same
rm -f "$a" "$b" "$c"
