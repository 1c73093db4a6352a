stackcollapse-firefox --thread-root public/firefox-profiler-processed-17.json
