stackcollapse-firefox worker.processed.json.gz
