stackcollapse-firefox worker.json
