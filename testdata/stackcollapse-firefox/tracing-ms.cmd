stackcollapse-firefox tracing-ms.json
