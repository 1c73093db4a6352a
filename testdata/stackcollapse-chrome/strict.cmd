# the first bad entry is an error: status 1 and its message
err=$(stackcollapse-chrome --strict graph.cpuprofile 2>&1 >/dev/null); echo "status $?"; printf '%s\n' "$err" | head -n 1
err=$(stackcollapse-chrome --strict --time wrong-types.cpuprofile 2>&1 >/dev/null); echo "status $?"; printf '%s\n' "$err" | head -n 1
stackcollapse-chrome --strict cpu.cpuprofile | wc -l
