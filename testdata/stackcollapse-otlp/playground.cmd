stackcollapse-otlp public/ottl-playground-profiles-3179348d.json
