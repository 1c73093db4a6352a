stackcollapse-dtrace only-header-lines.txt
