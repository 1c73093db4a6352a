# a node .cpuprofile in the js palette, no --lines: the profiled script's
# functions (marked "_[j]") green, V8's own nodes yellow, node's modules and
# the natives red; each frame's hue, and no mark left in a title
flamegraph-svg --no-javascript --colors js ../stackcollapse-chrome/cpu.out | tr -d '\n' | sed 's/<g>/\n/g' | sed -n 's/.*<title>\(.*\) ([0-9,]* samples.*fill="rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\)).*/\2 \3 \4 \1/p' | awk '{ h = $2 > $1 ? "green" : $2 > 150 ? "yellow" : "red"; $1 = $2 = $3 = ""; sub(/^ +/, ""); print h, $0 }' | sort -u
