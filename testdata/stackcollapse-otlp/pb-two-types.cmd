stackcollapse-otlp two-types.pb
