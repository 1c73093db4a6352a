stackcollapse-otlp --max-size 1K two-types.json
