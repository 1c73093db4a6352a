stackcollapse-chrome-tracing --durations bad.json
