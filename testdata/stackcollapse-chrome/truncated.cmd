# a profile cut short: the input fails, the next is still read
head -c 9000 cpu.cpuprofile | stackcollapse-chrome - time.cpuprofile
