stackcollapse-chrome-tracing --durations --thread-root --process-id 550 devtools-trace.json.gz | foldtop --top 10
