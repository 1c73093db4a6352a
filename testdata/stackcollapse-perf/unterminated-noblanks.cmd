# samples never followed by a blank line (stripped): each header ends
# the sample before it, and the last one is counted too
stackcollapse-perf unterminated-noblanks.perf
