echo "{\"nodes\": []}" | stackcollapse-chrome-tracing
