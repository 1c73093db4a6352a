stackcollapse-chrome-tracing --durations --thread-id 757 array-trace.json
