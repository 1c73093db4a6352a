stackcollapse-otlp --sample-index nope two-types.json
