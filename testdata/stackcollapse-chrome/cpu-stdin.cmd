stackcollapse-chrome < cpu.cpuprofile
