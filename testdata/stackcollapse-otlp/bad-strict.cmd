stackcollapse-otlp --strict bad.json
