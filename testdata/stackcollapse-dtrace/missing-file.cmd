stackcollapse-dtrace no-such-file.txt java.txt
