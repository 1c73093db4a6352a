stackcollapse-jfr --event JavaMonitorEnter --threads --lines binary/lock.jfr
