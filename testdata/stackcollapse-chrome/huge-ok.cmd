stackcollapse-chrome --time huge-ok.cpuprofile
