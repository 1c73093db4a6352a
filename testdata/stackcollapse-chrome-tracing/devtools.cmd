stackcollapse-chrome-tracing devtools-trace.json.gz
