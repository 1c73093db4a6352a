stackcollapse-chrome-tracing --thread-root public/simple-partial.json
