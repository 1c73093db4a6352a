stackcollapse-otlp attributes.json
