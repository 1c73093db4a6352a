gzip -9n < worker.json | stackcollapse-firefox
