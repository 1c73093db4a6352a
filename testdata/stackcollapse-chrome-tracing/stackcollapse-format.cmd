stackcollapse --format chrome-tracing --durations array-trace.json | head -5
