stackcollapse-chrome-tracing --thread-root node-trace.json
