stackcollapse-chrome-tracing --thread-name NoSuchThread array-trace.json
