stackcollapse-sample bad-stack-line.txt
