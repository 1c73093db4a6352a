stackcollapse-chrome-tracing --thread-root public/simple.json
