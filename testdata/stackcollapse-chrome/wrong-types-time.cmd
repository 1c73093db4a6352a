stackcollapse-chrome --time --lines wrong-types.cpuprofile
