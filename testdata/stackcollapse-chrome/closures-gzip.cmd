stackcollapse-chrome closures.cpuprofile.gz
