stackcollapse-chrome-tracing --durations --thread-name CrRendererMain devtools-trace.json.gz
