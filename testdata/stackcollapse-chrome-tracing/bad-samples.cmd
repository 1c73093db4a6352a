stackcollapse-chrome-tracing bad.json
