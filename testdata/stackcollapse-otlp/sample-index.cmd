stackcollapse-otlp --sample-index alloc_space --lines --filenames two-types.json
