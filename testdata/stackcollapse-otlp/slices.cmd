stackcollapse-otlp slices.json
