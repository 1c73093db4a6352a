stackcollapse-jfr --event jdk.JavaMonitorEnter alloc.txt.gz
