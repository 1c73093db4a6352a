stackcollapse-chrome wrong-types.cpuprofile
