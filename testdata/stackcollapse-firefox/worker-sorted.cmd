stackcollapse-firefox worker-sorted.json
