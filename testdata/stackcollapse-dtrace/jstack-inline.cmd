stackcollapse-dtrace jstack-inline.txt
