stackcollapse-chrome no-such-file.cpuprofile time.cpuprofile
