stackcollapse-otlp old-layout.json
