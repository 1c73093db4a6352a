# a sample, then more lines that are not perf script than lines that are:
# status 1, the sample still written
stackcollapse-perf mostly-bad.perf
