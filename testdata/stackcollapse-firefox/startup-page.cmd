stackcollapse-firefox --thread-name GeckoMain --process-id 13930 --no-jit --lines startup.json.gz
