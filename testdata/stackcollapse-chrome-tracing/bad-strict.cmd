stackcollapse-chrome-tracing --strict bad.json
