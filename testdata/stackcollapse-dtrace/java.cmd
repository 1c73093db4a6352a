stackcollapse-dtrace java.txt
