head -c 1000 array-trace.json | stackcollapse-chrome-tracing
