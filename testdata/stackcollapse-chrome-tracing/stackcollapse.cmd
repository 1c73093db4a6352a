stackcollapse array-trace.json
