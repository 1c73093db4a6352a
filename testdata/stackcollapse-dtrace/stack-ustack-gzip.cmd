gzip -c stack-ustack.txt | stackcollapse-dtrace -
