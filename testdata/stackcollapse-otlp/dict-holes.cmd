stackcollapse-otlp dict-holes.json
