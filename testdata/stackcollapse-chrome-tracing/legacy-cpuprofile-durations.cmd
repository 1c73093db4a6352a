stackcollapse-chrome-tracing --durations legacy-cpuprofile.json
