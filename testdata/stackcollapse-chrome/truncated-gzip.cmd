# a gzip stream cut short
head -c 3000 closures.cpuprofile.gz | stackcollapse-chrome
