stackcollapse-chrome samples-bad.cpuprofile
