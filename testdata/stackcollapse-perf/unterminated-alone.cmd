# one sample, no blank line after it: nothing says the input was cut
# short, and it is counted
stackcollapse-perf unterminated-alone.perf
