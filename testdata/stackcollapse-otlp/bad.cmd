stackcollapse-otlp bad.json
