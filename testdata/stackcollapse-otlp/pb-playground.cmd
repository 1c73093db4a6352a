stackcollapse-otlp playground.pb
