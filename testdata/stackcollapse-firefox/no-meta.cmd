stackcollapse-firefox no-meta.json
