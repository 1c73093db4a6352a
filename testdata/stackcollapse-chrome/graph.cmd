stackcollapse-chrome graph.cpuprofile
