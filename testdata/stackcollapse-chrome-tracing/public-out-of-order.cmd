stackcollapse-chrome-tracing --thread-root public/out-of-order.json
