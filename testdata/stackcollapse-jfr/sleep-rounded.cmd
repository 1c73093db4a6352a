stackcollapse-jfr --event jdk.ThreadSleep lock-deep.txt.gz
