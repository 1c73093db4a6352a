stackcollapse-chrome-tracing --thread-root public/too-many-end-events.json
