stackcollapse-firefox --thread-name cpu bytes.json
