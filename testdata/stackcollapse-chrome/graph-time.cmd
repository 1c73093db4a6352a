stackcollapse-chrome --time graph.cpuprofile
