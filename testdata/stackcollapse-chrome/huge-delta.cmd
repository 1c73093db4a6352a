stackcollapse-chrome --time huge.cpuprofile
