stackcollapse-chrome cpu.cpuprofile
