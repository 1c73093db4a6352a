stackcollapse-chrome-tracing --time public/simple-with-samples.json
