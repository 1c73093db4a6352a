# three credits of 2^63-1 microseconds: the sum passes 2^64-1, an error
stackcollapse-chrome --time huge-ok.cpuprofile huge-ok.cpuprofile
