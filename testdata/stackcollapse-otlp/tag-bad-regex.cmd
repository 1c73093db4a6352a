stackcollapse-otlp --tag-focus 'k=(' attributes.json
