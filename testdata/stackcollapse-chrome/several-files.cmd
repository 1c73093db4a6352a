stackcollapse-chrome cpu.cpuprofile closures.cpuprofile.gz async.cpuprofile
