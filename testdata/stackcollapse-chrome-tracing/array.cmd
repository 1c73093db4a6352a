stackcollapse-chrome-tracing array-trace.json
