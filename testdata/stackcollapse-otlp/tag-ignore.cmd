stackcollapse-otlp --tag-ignore service.name=cart --tag-root service.name attributes.json
