stackcollapse-chrome-tracing --thread-root public/simple-object.json
