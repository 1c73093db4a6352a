stackcollapse-chrome-tracing --no-jit --samples array-trace.json
