stackcollapse-firefox startup.json.gz
