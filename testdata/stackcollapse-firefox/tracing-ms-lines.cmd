stackcollapse-firefox --lines tracing-ms.json
