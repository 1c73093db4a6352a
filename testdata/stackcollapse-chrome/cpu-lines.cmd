stackcollapse-chrome --lines cpu.cpuprofile
