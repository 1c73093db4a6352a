stackcollapse-chrome-tracing --thread-root public/simple-partial-trailing-comma.json
