stackcollapse-firefox --thread-root worker-stackwalk.json.gz
