stackcollapse-dtrace --includeoffset jstack-inline.txt
