stackcollapse-chrome-tracing --durations --thread-root bad.json
