stackcollapse-jfr --event jdk.JavaMonitorWait --lines --signatures lock-deep.txt.gz
