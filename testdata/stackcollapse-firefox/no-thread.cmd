stackcollapse-firefox --thread-name Nope --thread-name "DOM Worker" worker.json
