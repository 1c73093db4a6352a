stackcollapse-chrome --time time.cpuprofile
