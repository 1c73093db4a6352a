# the first bad line is an error: status 1 and its message
err=$(stackcollapse-jfr --strict bad.txt 2>&1 >/dev/null); echo "status $?"; printf '%s\n' "$err" | head -n 1
