stackcollapse-chrome async.cpuprofile
