stackcollapse-chrome-tracing --thread-root public/zero-duration-events.json
