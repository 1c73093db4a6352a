stackcollapse-jfr --event jdk.ThreadPark --weight count lock-deep.txt.gz
