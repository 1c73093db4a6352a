stackcollapse-chrome --lines line-max.cpuprofile
