stackcollapse-chrome-tracing --thread-root old-samples-bad.json
