stackcollapse-chrome-tracing --thread-root startup-trace.json.gz
