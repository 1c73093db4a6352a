stackcollapse-jfr --event jdk.ThreadSleep lock-exact.txt.gz
