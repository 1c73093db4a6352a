stackcollapse-firefox --strict bad.json
