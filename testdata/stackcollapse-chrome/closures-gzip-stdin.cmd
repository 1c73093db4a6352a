stackcollapse-chrome --lines < closures.cpuprofile.gz
