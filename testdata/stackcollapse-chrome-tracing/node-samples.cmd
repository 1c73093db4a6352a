stackcollapse-chrome-tracing --samples node-trace.json
