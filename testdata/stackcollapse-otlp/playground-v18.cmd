stackcollapse-otlp public/ottl-playground-profiles-925d283f.json
