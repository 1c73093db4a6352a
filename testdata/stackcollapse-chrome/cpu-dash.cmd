stackcollapse-chrome - < cpu.cpuprofile
