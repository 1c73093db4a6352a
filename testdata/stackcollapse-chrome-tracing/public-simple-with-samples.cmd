stackcollapse-chrome-tracing --thread-root public/simple-with-samples.json
