stackcollapse-otlp --tag-focus 'endpoint=^/pay$' attributes.json
