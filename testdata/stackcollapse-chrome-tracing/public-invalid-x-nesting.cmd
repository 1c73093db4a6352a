stackcollapse-chrome-tracing --thread-root public/invalid-x-nesting.json
