stackcollapse-chrome-tracing node-trace.json
