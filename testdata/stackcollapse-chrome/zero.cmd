timeout 10 stackcollapse-chrome /dev/zero
