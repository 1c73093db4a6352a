stackcollapse-otlp --tag-root service.name,endpoint --tag-leaf version,thread.id attributes.pb
