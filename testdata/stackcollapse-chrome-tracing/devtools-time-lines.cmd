stackcollapse-chrome-tracing --time --lines --thread-root devtools-trace.json.gz
