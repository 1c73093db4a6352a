stackcollapse-firefox --thread-id 15503 --thread-root worker-stackwalk.json.gz
