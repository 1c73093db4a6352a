stackcollapse-chrome --time samples-bad.cpuprofile
