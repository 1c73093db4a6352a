stackcollapse-chrome time.cpuprofile
