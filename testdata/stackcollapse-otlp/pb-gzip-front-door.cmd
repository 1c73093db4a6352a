gzip -9n < two-types.pb | stackcollapse --format otlp --sample-index alloc_space
