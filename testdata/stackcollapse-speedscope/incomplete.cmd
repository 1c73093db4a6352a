stackcollapse-speedscope invalid-incomplete-trace.json
