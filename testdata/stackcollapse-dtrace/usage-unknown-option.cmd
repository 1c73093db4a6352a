stackcollapse-dtrace --offsets java.txt
