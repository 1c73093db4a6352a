stackcollapse-jfr --event jdk.ThreadPark lock.txt.gz
