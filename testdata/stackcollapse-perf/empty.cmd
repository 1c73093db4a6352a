# an empty input is an error alone, not among inputs that have stacks
stackcollapse-perf </dev/null; echo "status $?"
stackcollapse-perf /dev/null unterminated-alone.perf /dev/null; echo "status $?"
: | stackcollapse-perf /dev/null -; echo "status $?"
