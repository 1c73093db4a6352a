stackcollapse-chrome-tracing --time legacy-cpuprofile.json
