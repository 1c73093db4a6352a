stackcollapse-chrome-tracing --thread-root public/end-non-top-of-stack.json
