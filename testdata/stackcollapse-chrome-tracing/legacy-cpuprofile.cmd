stackcollapse-chrome-tracing --thread-root legacy-cpuprofile.json
