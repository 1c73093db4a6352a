gzip -9n < two-types.json | stackcollapse-otlp
