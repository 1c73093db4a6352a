stackcollapse-chrome-tracing --thread-root public/x-events-matching-end.json
