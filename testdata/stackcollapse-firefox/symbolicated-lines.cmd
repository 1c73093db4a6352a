stackcollapse-firefox --lines worker-symbolicated.json.gz
