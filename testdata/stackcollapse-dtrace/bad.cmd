stackcollapse-dtrace bad.txt
