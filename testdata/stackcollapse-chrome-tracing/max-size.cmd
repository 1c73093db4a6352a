stackcollapse-chrome-tracing --max-size 100K array-trace.json
