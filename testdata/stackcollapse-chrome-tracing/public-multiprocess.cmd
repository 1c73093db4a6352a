stackcollapse-chrome-tracing --thread-root public/multiprocess.json
