stackcollapse-chrome huge.cpuprofile
