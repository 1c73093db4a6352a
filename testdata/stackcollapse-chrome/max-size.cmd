# an input past --max-size: an error naming the limit; the next is read
stackcollapse-chrome --max-size 1K cpu.cpuprofile time.cpuprofile
