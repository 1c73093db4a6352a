stackcollapse-jfr --event jdk.JavaMonitorEnter --threads lock-deep.txt.gz
