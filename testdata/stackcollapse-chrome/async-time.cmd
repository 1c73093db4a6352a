stackcollapse-chrome --time async.cpuprofile
