printf '\n\005garbage' | stackcollapse-otlp
