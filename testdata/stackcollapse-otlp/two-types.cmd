stackcollapse-otlp two-types.json
