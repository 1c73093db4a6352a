stackcollapse-firefox --lines --thread-root worker.processed.json.gz
